#!/usr/bin/env python3
"""stamp.py CMD...: runs CMD, prefixes each output line with the seconds since its start; the last
line is "+SECONDS exit CODE". Used by tools/probes/grade_seconds.sh."""
import subprocess, sys, time
t0 = time.monotonic()
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
for line in p.stdout:
    sys.stdout.write(f"+{time.monotonic() - t0:6.2f} {line}")
p.wait()
print(f"+{time.monotonic() - t0:6.2f} exit {p.returncode}")
