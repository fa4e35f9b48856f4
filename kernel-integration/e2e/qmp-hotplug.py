#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The host's half of memory hotplug in the end-to-end boots.

usage: qmp-hotplug.py QMP_SOCKET SERIAL_LOG

Follows the guest's serial log and answers its requests through QEMU's
QMP socket:

  memtier-e2e: qmp add ID MB NODE   a pc-dimm of MB MiB into NODE
  memtier-e2e: qmp del ID           unplug it (the guest offlined it),
                                    then free its memory backend

and writes "qmp: ..." lines of what it did to stderr.  The guest sees
the effect in sysfs and waits for it there; nothing is sent back on the
serial line.  Ends when QEMU closes the socket.
"""
import json
import os
import re
import socket
import sys
import time

REQUEST = re.compile(r"memtier-e2e: qmp (add (\S+) (\d+) (\d+)|del (\S+))\s*$")


class Qmp:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buf = b""
        self.events = []
        self.recv()  # the greeting
        self.cmd("qmp_capabilities")

    def recv(self):
        while b"\n" not in self.buf:
            data = self.sock.recv(65536)
            if not data:
                raise EOFError
            self.buf += data
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def cmd(self, name, **args):
        self.sock.sendall(json.dumps({"execute": name,
                                      "arguments": args}).encode() + b"\n")
        while True:
            msg = self.recv()
            if "event" in msg:
                self.events.append(msg)
                continue
            if "error" in msg:
                print(f"qmp: {name} {args}: {msg['error']}", file=sys.stderr)
            return msg

    def poll(self, seconds):
        """Wait up to SECONDS for one message; keep it with the events."""
        self.sock.settimeout(seconds)
        try:
            self.events.append(self.recv())
        except socket.timeout:
            pass
        finally:
            self.sock.settimeout(None)

    def wait_event(self, name, device, timeout):
        end = time.time() + timeout
        while time.time() < end:
            for ev in self.events:
                if ev["event"] == name and \
                        ev.get("data", {}).get("device") == device:
                    self.events.remove(ev)
                    return True
            self.poll(1)
        return False


def main():
    path, log = sys.argv[1], sys.argv[2]
    # QEMU creates the socket as it starts: try for up to 30 s.
    qmp = None
    for _ in range(300):
        try:
            qmp = Qmp(path)
            break
        except OSError as err:
            last = err
            time.sleep(0.1)
    if qmp is None:
        print(f"qmp: cannot connect to {path}: {last}", file=sys.stderr)
        return 1
    pos = 0
    pending = ""
    try:
        while True:
            with open(log, "rb") as f:
                f.seek(pos)
                data = f.read()
            pos += len(data)
            pending += data.decode(errors="replace").replace("\r", "")
            *lines, pending = pending.split("\n")
            for line in lines:
                m = REQUEST.search(line)
                if not m:
                    continue
                if m.group(2):
                    dimm, mb, node = m.group(2), int(m.group(3)), int(m.group(4))
                    qmp.cmd("object-add", **{"qom-type": "memory-backend-ram",
                                             "id": "mem-" + dimm,
                                             "size": mb << 20})
                    qmp.cmd("device_add", driver="pc-dimm", id=dimm,
                            memdev="mem-" + dimm, node=node)
                    print(f"qmp: added {dimm}, {mb} MiB, node {node}",
                          file=sys.stderr)
                else:
                    dimm = m.group(5)
                    qmp.cmd("device_del", id=dimm)
                    gone = qmp.wait_event("DEVICE_DELETED", dimm, 60)
                    qmp.cmd("object-del", id="mem-" + dimm)
                    print(f"qmp: removed {dimm} (deleted event: {gone})",
                          file=sys.stderr)
            # Answers the socket's events too, so QEMU never blocks on it.
            qmp.poll(0.2)
    except (EOFError, OSError):
        return 0


if __name__ == "__main__":
    sys.exit(main())
