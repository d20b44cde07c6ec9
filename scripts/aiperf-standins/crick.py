"""benchplan's stand-in for the crick package (a C t-digest Debian does not ship), for the
real-engine test tier only (scripts/aiperf-test-env.sh installs it next to AIPerf 0.11).

AIPerf 0.11 calls three things: TDigest(compression=...), update(scalar or array) and
quantile(q). This keeps every sample and answers exact quantiles (numpy's linear interpolation):
memory grows with the sample count, which a test run of a few hundred requests never notices.
"""
import numpy as np


class TDigest:
    def __init__(self, compression=100.0):
        self.compression = float(compression)
        self._chunks = []
        self._n = 0

    def update(self, x, w=1):
        # AIPerf passes a float or a float64 array; weights other than 1 are never used
        values = np.asarray(x, dtype=np.float64).reshape(-1)
        if values.size:
            self._chunks.append(values)
            self._n += values.size

    def _samples(self):
        if len(self._chunks) > 1:
            self._chunks = [np.concatenate(self._chunks)]
        return self._chunks[0] if self._chunks else np.empty(0)

    def quantile(self, q):
        samples = self._samples()
        if samples.size == 0:
            return float("nan")
        return np.quantile(samples, q)

    def size(self):
        return float(self._n)

    def min(self):
        return float(self._samples().min()) if self._n else float("nan")

    def max(self):
        return float(self._samples().max()) if self._n else float("nan")
