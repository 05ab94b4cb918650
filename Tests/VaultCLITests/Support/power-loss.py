#!/usr/bin/env python3
"""What a power loss could leave of a directory tree, from an strace of the writer.

Usage: power-loss.py ROOT BEFORE TRACE OUT
       power-loss.py --traced     (prints the system calls to trace)
       power-loss.py --self-test  (checks the model on a hand-written trace)

ROOT is the directory the traced command wrote under, BEFORE a copy of it
taken just before the command ran (taken as durable: all of it on the disk),
TRACE the output of

    strace -f -qq -y -xx -s 100000000 -o TRACE -e trace=<TRACED below> COMMAND

Writes every distinct tree a power loss could leave at each crash point into
OUT/0, OUT/1, ... and OUT/states.json, one object per tree: its "directory",
the crash "points" that can leave it (each the "syscall" and "index" the power
goes out right after, "exit" for after the command ended; how many of the
directory operations not yet made durable it applies of how many "pending";
whether the data not yet fsynced is "lost", "torn" or "kept"), and "after_exit": true
when a power loss after the command ended can leave it.

The model, and what it leaves out:
- A file's data is durable once fsync or fdatasync of it returns. At a crash,
  unsynced data is all lost (the file as last synced; empty if never synced
  since it was created), torn (the first half of the writes and truncations
  made since, in order, each file alike) or all kept. One file's data lost
  while another's is kept is not tried, nor a torn write inside one call.
- A directory operation (create, rename, link, unlink, mkdir, rmdir) is
  durable once its directory is fsynced. The ones not yet durable reach the
  disk in the order they were made, so a crash keeps a prefix of them: every
  prefix is tried, from none to all. File systems that reorder metadata
  (writing a later rename before an earlier create) are not modelled, nor is
  ext4's auto_da_alloc (which flushes a file renamed over another: this model
  is harsher).
- Only what happens under ROOT is modelled; one file-descriptor table is kept
  for all the traced processes (vault's writes run in one process); reads are
  not traced, so a write to a descriptor that was read first lands at the
  offset the model has (0 or the last write's end).
"""
import hashlib
import json
import os
import re
import shutil
import stat
import sys

TRACED = ("openat,open,creat,write,pwrite64,writev,lseek,ftruncate,truncate,fsync,fdatasync,sync,syncfs,"
          "sendfile,copy_file_range,close,rename,renameat,renameat2,link,linkat,unlink,unlinkat,"
          "mkdir,mkdirat,rmdir,dup,dup2,dup3,fcntl,fchmod,chmod")

HEX = re.compile(r'(?:\\x[0-9a-f]{2})+')


def unhex(text):
    return bytes.fromhex(text.replace('\\x', ''))


class Inode:
    def __init__(self, is_dir, data=b"", durable=True, mode=0o600):
        self.is_dir = is_dir
        self.data = bytearray(data)
        self.synced = bytes(data) if durable else b""
        self.unsynced = []       # ("put", offset, bytes) or ("truncate", length) since the last sync
        self.mode = mode

    def sync(self):
        self.synced = bytes(self.data)
        self.unsynced = []

    def torn(self):
        """The last synced data with the first half of the changes made since."""
        data = bytearray(self.synced)
        for change in self.unsynced[: len(self.unsynced) // 2]:
            if change[0] == "put":
                put(data, change[1], change[2])
            else:
                truncate(data, change[1])
        return bytes(data)


def put(data, offset, chunk):
    if len(data) < offset:
        data.extend(b"\0" * (offset - len(data)))
    data[offset:offset + len(chunk)] = chunk


def truncate(data, length):
    del data[length:]
    data.extend(b"\0" * (length - len(data)))


class Model:
    def __init__(self, root, before):
        self.root = os.path.normpath(root)
        self.inodes = {}
        self.names = {}          # path -> inode id, as the running processes see it
        self.durable = {}        # path -> inode id, as the disk has it
        self.pending = []        # directory operations not yet durable, in order
        self.fds = {}            # fd -> [inode id or None, offset, append, path]
        self.cwd = None
        self.next_id = 0
        for directory, subdirs, files in os.walk(before):
            relative = os.path.relpath(directory, before)
            path = self.root if relative == "." else os.path.join(self.root, relative)
            self.names[path] = self.new_inode(True, mode=stat.S_IMODE(os.lstat(directory).st_mode))
            for name in files:
                source = os.path.join(directory, name)
                if os.path.islink(source):
                    continue
                with open(source, "rb") as f:
                    self.names[os.path.join(path, name)] = self.new_inode(False, f.read(), mode=stat.S_IMODE(os.lstat(source).st_mode))
        self.durable = dict(self.names)

    def new_inode(self, is_dir, data=b"", durable=True, mode=0o600):
        self.next_id += 1
        self.inodes[self.next_id] = Inode(is_dir, data, durable, mode)
        return self.next_id

    def inside(self, path):
        return path == self.root or path.startswith(self.root + "/")

    # Directory operations: applied at once to what processes see, and queued for the disk.
    def directory_op(self, op):
        apply(self.names, op)
        self.pending.append(op)

    def sync_directory(self, path):
        keep = []
        for op in self.pending:
            if path in op_directories(op):
                apply(self.durable, op)
            else:
                keep.append(op)
        self.pending = keep

    def sync_all(self):
        for op in self.pending:
            apply(self.durable, op)
        self.pending = []
        for inode in self.inodes.values():
            inode.sync()

    def crash_trees(self):
        """Every tree a power loss now could leave: {path: (is_dir, bytes, mode)} per (prefix, data)."""
        trees = []
        for applied in range(len(self.pending) + 1):
            names = dict(self.durable)
            for op in self.pending[:applied]:
                apply(names, op)
            for data in ("lost", "torn", "kept"):
                tree = {}
                for path, ino in names.items():
                    inode = self.inodes[ino]
                    content = {"kept": bytes(inode.data), "torn": inode.torn(), "lost": inode.synced}[data]
                    tree[path] = (inode.is_dir, b"" if inode.is_dir else content, inode.mode)
                trees.append((applied, data, tree))
        return trees


def op_directories(op):
    return {os.path.dirname(path) for path in op[1:] if isinstance(path, str)}


def apply(names, op):
    kind = op[0]
    if kind in ("create", "mkdir"):
        names[op[1]] = op[2]
    elif kind == "link":
        if op[1] in names:
            names[op[2]] = names[op[1]]
    elif kind in ("unlink", "rmdir"):
        names.pop(op[1], None)
    elif kind == "rename":
        source, target = op[1], op[2]
        if source not in names:
            return
        prefix = source + "/"
        moved = {path: ino for path, ino in names.items() if path == source or path.startswith(prefix)}
        for path in moved:
            del names[path]
        for path, ino in moved.items():
            names[target + path[len(source):]] = ino


def split_arguments(text):
    """Top-level comma-separated arguments of a syscall's argument list."""
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "[{(<":
            depth += 1
        elif ch in "]})>":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


def fd_of(argument):
    match = re.match(r'(-?\d+)', argument)
    return int(match.group(1)) if match else None


def annotated_path(argument):
    match = re.search(r'<((?:\\x[0-9a-f]{2})+)>', argument)
    return unhex(match.group(1)).decode("utf-8", "replace") if match else None


def string_of(argument):
    match = re.match(r'"((?:\\x[0-9a-f]{2})*)"', argument)
    return unhex(match.group(1)) if match else None


LINE = re.compile(r'^(\d+)\s+(\w+)\((.*)\)\s+=\s+(-?\d+|\?)(.*)$')


def calls(trace):
    """(name, arguments, result, result text) of each finished syscall, unfinished ones joined."""
    unfinished = {}
    with open(trace, encoding="latin-1") as f:
        for raw in f:
            line = raw.rstrip("\n")
            match = re.match(r'^(\d+)\s+(.*)$', line)
            if not match:
                continue
            pid, rest = match.groups()
            if rest.endswith("<unfinished ...>"):
                unfinished[pid] = rest[: -len("<unfinished ...>")].rstrip()
                continue
            resumed = re.match(r'^<\.\.\. (\w+) resumed>\s?(.*)$', rest)
            if resumed:
                rest = unfinished.pop(pid, resumed.group(1) + "(") + resumed.group(2)
            parsed = LINE.match(pid + " " + rest)
            if not parsed:
                continue
            _, name, arguments, result, tail = parsed.groups()
            yield name, split_arguments(arguments), (None if result == "?" else int(result)), tail


class Replay:
    def __init__(self, model):
        self.m = model

    def resolve(self, dir_argument, path_bytes):
        path = path_bytes.decode("utf-8", "replace")
        if not path.startswith("/"):
            base = annotated_path(dir_argument) if dir_argument is not None else self.m.cwd
            if base is None:
                return None
            path = os.path.join(base, path)
        return os.path.normpath(path)

    def step(self, name, args, result, tail):
        m = self.m
        if name in ("openat", "open", "creat"):
            if name == "openat":
                m.cwd = m.cwd or annotated_path(args[0])
                path = self.resolve(args[0], string_of(args[1]) or b"")
                flags = args[2] if name != "creat" else "O_CREAT|O_WRONLY|O_TRUNC"
                mode_argument = args[3] if len(args) > 3 else "0600"
            else:
                path = self.resolve(None, string_of(args[0]) or b"")
                flags = args[1] if name == "open" else "O_CREAT|O_WRONLY|O_TRUNC"
                mode_argument = args[2] if len(args) > 2 else "0600"
            if result is None or result < 0 or path is None:
                return
            real = annotated_path(tail) or path
            ino = m.names.get(real)
            if m.inside(real) and ino is None and "O_CREAT" in flags:
                mode = int(mode_argument, 8) if re.fullmatch(r'0[0-7]*', mode_argument) else 0o600
                ino = m.new_inode(False, durable=False, mode=mode & ~0o022)
                m.directory_op(("create", real, ino))
            if ino is not None and "O_TRUNC" in flags and not m.inodes[ino].is_dir:
                self.truncate(ino, 0)
            m.fds[result] = [ino if m.inside(real) else None, 0, "O_APPEND" in flags, real]
        elif name == "close":
            m.fds.pop(fd_of(args[0]), None)
        elif name in ("dup", "dup2", "dup3") or (name == "fcntl" and "F_DUPFD" in args[1]):
            source = m.fds.get(fd_of(args[0]))
            if source is not None and result is not None and result >= 0:
                m.fds[result] = source
        elif name in ("write", "pwrite64"):
            entry = m.fds.get(fd_of(args[0]))
            if entry is None or entry[0] is None or result is None or result <= 0:
                return
            data = string_of(args[1])[:result]
            if name == "pwrite64":
                self.put(entry[0], int(args[3]), data)
            else:
                offset = len(m.inodes[entry[0]].data) if entry[2] else entry[1]
                self.put(entry[0], offset, data)
                entry[1] = offset + len(data)
        elif name == "writev":
            entry = m.fds.get(fd_of(args[0]))
            if entry is None or entry[0] is None or result is None or result <= 0:
                return
            data = b"".join(unhex(h) for h in re.findall(r'iov_base="((?:\\x[0-9a-f]{2})*)"', args[1]))[:result]
            offset = len(m.inodes[entry[0]].data) if entry[2] else entry[1]
            self.put(entry[0], offset, data)
            entry[1] = offset + len(data)
        elif name in ("sendfile", "copy_file_range"):
            if result is None or result <= 0:
                return
            if name == "sendfile":
                out_fd, in_fd, in_offset, out_offset = fd_of(args[0]), fd_of(args[1]), args[2], None
            else:
                in_fd, in_offset, out_fd, out_offset = fd_of(args[0]), args[1], fd_of(args[2]), args[3]
            source, target = m.fds.get(in_fd), m.fds.get(out_fd)
            if target is None or target[0] is None:
                return
            start = re.match(r'\[(\d+)\]', in_offset)
            start = int(start.group(1)) if start else (source[1] if source else 0)
            data = bytes(m.inodes[source[0]].data[start:start + result]) if source and source[0] else b"\0" * result
            if source and not re.match(r'\[', in_offset):
                source[1] = start + result
            explicit = re.match(r'\[(\d+)\]', out_offset) if out_offset else None
            offset = int(explicit.group(1)) if explicit else target[1]
            self.put(target[0], offset, data)
            if not explicit:
                target[1] = offset + len(data)
        elif name == "lseek":
            entry = m.fds.get(fd_of(args[0]))
            if entry is not None and result is not None and result >= 0:
                entry[1] = result
        elif name == "ftruncate":
            entry = m.fds.get(fd_of(args[0]))
            if entry is not None and entry[0] is not None and result == 0:
                self.truncate(entry[0], int(args[1]))
        elif name in ("fchmod", "chmod"):
            if result != 0:
                return
            if name == "fchmod":
                entry = m.fds.get(fd_of(args[0]))
                ino = entry[0] if entry else None
            else:
                ino = m.names.get(self.resolve(None, string_of(args[0]) or b""))
            if ino is not None:
                m.inodes[ino].mode = int(args[1], 8)
        elif name in ("fsync", "fdatasync"):
            entry = m.fds.get(fd_of(args[0]))
            if entry is None or entry[0] is None or result != 0:
                return
            inode = m.inodes[entry[0]]
            if inode.is_dir:
                m.sync_directory(entry[3])
            else:
                inode.sync()
        elif name in ("sync", "syncfs"):
            if result == 0:
                m.sync_all()
        elif name in ("rename", "renameat", "renameat2", "link", "linkat"):
            if result != 0:
                return
            if name in ("rename", "link"):
                source, target = self.resolve(None, string_of(args[0])), self.resolve(None, string_of(args[1]))
            else:
                source, target = self.resolve(args[0], string_of(args[1])), self.resolve(args[2], string_of(args[3]))
            if source is None or target is None or not (m.inside(source) or m.inside(target)):
                return
            m.directory_op(("link" if name.startswith("link") else "rename", source, target))
        elif name in ("unlink", "unlinkat", "rmdir"):
            if result != 0:
                return
            path = self.resolve(None, string_of(args[0])) if name != "unlinkat" else self.resolve(args[0], string_of(args[1]))
            if path is not None and m.inside(path):
                m.directory_op(("rmdir" if name == "rmdir" or "AT_REMOVEDIR" in args[-1] else "unlink", path))
        elif name in ("mkdir", "mkdirat"):
            if result != 0:
                return
            path = self.resolve(None, string_of(args[0])) if name == "mkdir" else self.resolve(args[0], string_of(args[1]))
            if path is not None and m.inside(path):
                m.directory_op(("mkdir", path, m.new_inode(True, mode=0o700)))

    def put(self, ino, offset, data):
        inode = self.m.inodes[ino]
        put(inode.data, offset, data)
        inode.unsynced.append(("put", offset, bytes(data)))

    def truncate(self, ino, length):
        inode = self.m.inodes[ino]
        truncate(inode.data, length)
        inode.unsynced.append(("truncate", length))


CRASH_POINTS = {"fsync", "fdatasync", "rename", "renameat", "renameat2", "link", "linkat", "unlink", "unlinkat"}


def self_test():
    """The model on a hand-written trace: a file written in two calls and renamed over an old one
    without an fsync of its data, then its directory synced. Prints what differs; exits 1 then."""
    import tempfile
    with tempfile.TemporaryDirectory() as scratch:
        root, before, out = (os.path.join(scratch, name) for name in ("root", "before", "out"))
        for directory in (root, before, out):
            os.makedirs(directory)
        with open(os.path.join(before, "f"), "wb") as f:
            f.write(b"old")

        def h(text):
            return "".join("\\x%02x" % byte for byte in text.encode())

        temp, target = os.path.join(root, ".f.tmp"), os.path.join(root, "f")
        trace = os.path.join(scratch, "trace")
        with open(trace, "w") as f:
            f.write(f"""1  openat(AT_FDCWD<{h(root)}>, "{h(temp)}", O_WRONLY|O_CREAT|O_EXCL, 0600) = 3<{h(temp)}>
1  write(3<{h(temp)}>, "{h('AAAA')}", 4) = 4
1  write(3<{h(temp)}>, "{h('BBBB')}", 4) = 4
1  close(3<{h(temp)}>) = 0
1  rename("{h(temp)}", "{h(target)}") = 0
1  openat(AT_FDCWD<{h(root)}>, "{h(root)}", O_RDONLY|O_DIRECTORY) = 4<{h(root)}>
1  fsync(4<{h(root)}>) = 0
""")
        sys.argv = [sys.argv[0], root, before, trace, out]
        main()
        with open(os.path.join(out, "states.json")) as f:
            states = json.load(f)
        found = set()
        for state in states:
            files = tuple(sorted((name, open(os.path.join(state["directory"], name), "rb").read())
                                 for name in os.listdir(state["directory"])))
            found.add((state["after_exit"], files))
        expected = {
            (False, (("f", b"old"),)),                                  # before, and the create not on the disk
            (False, ((".f.tmp", b""), ("f", b"old"))),                  # the create, data lost
            (False, ((".f.tmp", b"AAAA"), ("f", b"old"))),              # the create, torn
            (False, ((".f.tmp", b"AAAABBBB"), ("f", b"old"))),          # the create, data kept
            (True, (("f", b""),)),                                      # the rename, data lost: the bug fsync prevents
            (True, (("f", b"AAAA"),)),
            (True, (("f", b"AAAABBBB"),)),
        }
        if found != expected:
            print("power-loss: self-test: found", sorted(found - expected), "missing", sorted(expected - found))
            sys.exit(1)
        print("power-loss: self-test passed")


def main():
    if sys.argv[1:] == ["--traced"]:
        print(TRACED)
        return
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return
    root, before, trace, out = sys.argv[1:5]
    model = Model(root, before)
    replay = Replay(model)
    seen, states = {}, []

    def record(index, syscall):
        for applied, data, tree in model.crash_trees():
            digest = hashlib.sha256()
            for path in sorted(tree):
                is_dir, content, mode = tree[path]
                digest.update(path.encode() + b"\0" + (b"d" if is_dir else hashlib.sha256(content).digest()) + b"%o" % mode)
            key = digest.hexdigest()
            point = {"index": index, "syscall": syscall, "applied": applied, "pending": len(model.pending), "data": data}
            if key in seen:
                states[seen[key]]["points"].append(point)
                states[seen[key]]["after_exit"] |= syscall == "exit"
                continue
            seen[key] = len(states)
            directory = os.path.join(out, str(len(states)))
            write_tree(tree, model.root, directory)
            states.append({"directory": directory, "points": [point], "after_exit": syscall == "exit"})

    record(0, "start")
    index = 0
    for name, args, result, tail in calls(trace):
        index += 1
        replay.step(name, args, result, tail)
        if name in CRASH_POINTS and result == 0:
            target = args[0] if name in ("fsync", "fdatasync") else ""
            touches = name not in ("fsync", "fdatasync") or (model.fds.get(fd_of(target)) or [None])[0] is not None
            if touches:
                record(index, name)
    record(index + 1, "exit")
    with open(os.path.join(out, "states.json"), "w") as f:
        json.dump(states, f)
    print(f"power-loss: {len(states)} distinct trees from {index} calls")


def write_tree(tree, root, directory):
    os.makedirs(directory)
    for path in sorted(tree):
        is_dir, content, mode = tree[path]
        relative = os.path.relpath(path, root)
        target = directory if relative == "." else os.path.join(directory, relative)
        parent = os.path.dirname(target)
        if not os.path.isdir(parent):
            continue  # its directory did not reach the disk
        if is_dir:
            os.makedirs(target, exist_ok=True)
            os.chmod(target, mode)
        else:
            with open(target, "wb") as f:
                f.write(content)
            os.chmod(target, mode)


if __name__ == "__main__":
    main()
