# benchplan artifact channel, encoder side (python3 ship-artifacts.py DIR [MAX_BYTES [FIRST_CHUNK CHUNK_COUNT]]):
# prints every regular file under DIR to stdout as one verified block (dev.benchplan.artifacts.ArtifactChannel
# decodes it).
#   ==== benchplan:artifacts:begin v1 ====
#   F {"path": "<relative path, slash-separated>", "size": N, "sha256": "<hex>"}    one per file, sorted
#   C <seq> <sha256 of the chunk bytes> <base64 of the chunk>             gzip stream of all files
#   ==== benchplan:artifacts:end files=<n> bytes=<total> chunks=<k> manifest_sha256=<hex> gzip_sha256=<hex> ====
# A tree larger than MAX_BYTES (the log channel bound; 0: no bound) is not shipped: the too-large line, the
# manifest (the F lines) and its closing line, against which the copy of a collector is verified:
#   ==== benchplan:artifacts:too-large files=<n> bytes=<total> max=<MAX_BYTES> ====
#   F ...
#   ==== benchplan:artifacts:manifest files=<n> bytes=<total> manifest_sha256=<hex> ====
# With FIRST_CHUNK and CHUNK_COUNT (a collector pod, one part of a tree larger than one log): only chunks
# FIRST_CHUNK .. FIRST_CHUNK+CHUNK_COUNT-1; the begin and F lines only in the part of chunk 0; the end line only
# in the part where the stream ends, else ==== benchplan:artifacts:part-end next=<seq> ==== (the FIRST_CHUNK
# of the next part). The concatenated parts, part-end lines dropped, are the one block above.
# manifest_sha256 covers the F lines (each with its newline) as printed.
# The gzip stream is the bytes of the files concatenated in manifest order; chunks are small enough that
# no container runtime splits a log line (16 KiB). Standard library only: the AIPerf image has no tar.
import base64, gzip, hashlib, json, os, sys, zlib

CHUNK = 3 * 1024  # raw bytes per chunk: 4 KiB of base64 per log line
root = sys.argv[1]
limit = int(sys.argv[2]) if len(sys.argv) > 2 and int(sys.argv[2]) > 0 else None
first = int(sys.argv[3]) if len(sys.argv) > 4 else 0
count = int(sys.argv[4]) if len(sys.argv) > 4 else None
out = sys.stdout
files = []
for d, dirs, names in os.walk(root):
    dirs.sort()
    for n in names:
        p = os.path.join(d, n)
        if os.path.isfile(p) and not os.path.islink(p):
            files.append(os.path.relpath(p, root).replace(os.sep, "/"))
files.sort()
too_large = False
if limit is not None:
    size = sum(os.path.getsize(os.path.join(root, rel)) for rel in files)
    if size > limit:
        out.write("==== benchplan:artifacts:too-large files=%d bytes=%d max=%d ====\n" % (len(files), size, limit))
        too_large = True
total = 0
listing = hashlib.sha256()
if first == 0 and not too_large:
    out.write("==== benchplan:artifacts:begin v1 ====\n")
for rel in files:
    h = hashlib.sha256()
    size = 0
    with open(os.path.join(root, rel), "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
            size += len(block)
    total += size
    line = "F " + json.dumps({"path": rel, "size": size, "sha256": h.hexdigest()}, ensure_ascii=True) + "\n"
    listing.update(line.encode("ascii"))
    if first == 0:
        out.write(line)
if too_large:
    out.write("==== benchplan:artifacts:manifest files=%d bytes=%d manifest_sha256=%s ====\n" % (len(files), total, listing.hexdigest()))
    out.flush()
    sys.exit(0)
out.flush()

class PartDone(Exception):
    pass

seq = 0
pending = bytearray()
stream = hashlib.sha256()

def emit(data, final=False):
    global seq
    pending.extend(data)
    while len(pending) >= CHUNK or (final and pending):
        piece = bytes(pending[:CHUNK])
        del pending[:CHUNK]
        stream.update(piece)
        if count is not None and seq >= first + count:
            raise PartDone()
        if seq >= first:
            out.write("C %d %s %s\n" % (seq, hashlib.sha256(piece).hexdigest(), base64.b64encode(piece).decode("ascii")))
        seq += 1

# mtime 0 and no name: the same files give the same stream
z = zlib.compressobj(6, zlib.DEFLATED, 31)
try:
    for rel in files:
        with open(os.path.join(root, rel), "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                emit(z.compress(block))
    emit(z.flush(), final=True)
except PartDone:
    # more chunks follow: the next part starts where this one stopped
    out.write("==== benchplan:artifacts:part-end next=%d ====\n" % seq)
    out.flush()
    sys.exit(0)
if seq < first:
    sys.stderr.write("benchplan: the stream has %d chunks, none from chunk %d\n" % (seq, first))
    sys.exit(3)
out.write("==== benchplan:artifacts:end files=%d bytes=%d chunks=%d manifest_sha256=%s gzip_sha256=%s ====\n" % (len(files), total, seq, listing.hexdigest(), stream.hexdigest()))
out.flush()
