"""benchplan's stand-in for ffmpeg-python (not in Debian), for the real-engine test tier only.

AIPerf 0.11 imports it at module level for synthetic video, which benchplan never asks for; an
empty module satisfies the import, and any real use fails loudly with AttributeError.
"""
