#!/usr/bin/env python3
"""Mach-O object files of a static library, read and adjusted without Apple's tools (used by
scripts/lib/phones.sh for the iOS libraries).

  macho.py hide OBJ        every defined external symbol but the C ABI's (_boids_*) becomes
                           private extern (N_PEXT: it links inside the program, but no other
                           library or program sees it), and _rust_eh_personality also a weak
                           definition (two Rust libraries in one app then share one instead
                           of clashing). ld64.lld cannot make a relocatable object (-r) and
                           llvm-objcopy cannot localize Mach-O symbols, so the flags are set in
                           place: the symbol table keeps its order, so every relocation stays
                           valid.
  macho.py exports OBJ     the defined external symbols that are not private extern, one a line
  macho.py undefined OBJ   the undefined symbols, one a line ("weak" after a weak import)
  macho.py platform OBJ    "<platform> <minos> <cputype>" from LC_BUILD_VERSION or
                           LC_VERSION_MIN_* (platform: ios, iossimulator, macos, ...)

Only thin 64-bit little-endian Mach-O objects (MH_OBJECT), which is what rustc writes.
"""
import struct
import sys

MH_MAGIC_64 = 0xFEEDFACF
LC_SYMTAB = 0x2
LC_BUILD_VERSION = 0x32
LC_VERSION_MIN_IPHONEOS = 0x25
LC_VERSION_MIN_MACOSX = 0x24
N_STAB = 0xE0
N_PEXT = 0x10
N_TYPE = 0x0E
N_EXT = 0x01
N_UNDF = 0x0
N_SECT = 0xE
N_WEAK_REF = 0x0040
N_WEAK_DEF = 0x0080
PLATFORMS = {1: "macos", 2: "ios", 3: "tvos", 4: "watchos", 6: "maccatalyst", 7: "iossimulator",
             8: "tvossimulator", 9: "watchossimulator"}
CPUS = {0x01000007: "x86_64", 0x0100000C: "arm64"}


class Obj:
    def __init__(self, path):
        self.path = path
        self.data = bytearray(open(path, "rb").read())
        magic, cputype, _, filetype, ncmds, _, _, _ = struct.unpack_from("<IiiIIIII", self.data)
        if magic != MH_MAGIC_64:
            sys.exit(f"macho.py: {path}: not a thin 64-bit little-endian Mach-O file")
        self.cputype = cputype & 0xFFFFFFFF
        self.filetype = filetype
        self.commands = []
        off = 32
        for _ in range(ncmds):
            cmd, size = struct.unpack_from("<II", self.data, off)
            self.commands.append((cmd, off, size))
            off += size

    def symbols(self):
        """(offset of the nlist entry, name, n_type, n_sect, n_desc) for every symbol."""
        for cmd, off, _ in self.commands:
            if cmd != LC_SYMTAB:
                continue
            symoff, nsyms, stroff, strsize = struct.unpack_from("<IIII", self.data, off + 8)
            for k in range(nsyms):
                at = symoff + 16 * k
                strx, ntype, nsect, ndesc, _ = struct.unpack_from("<IBBHQ", self.data, at)
                end = self.data.index(b"\0", stroff + strx, stroff + strsize)
                yield at, self.data[stroff + strx:end].decode(), ntype, nsect, ndesc

    def platform(self):
        for cmd, off, _ in self.commands:
            if cmd == LC_BUILD_VERSION:
                platform, minos = struct.unpack_from("<II", self.data, off + 8)
                return PLATFORMS.get(platform, str(platform)), version(minos)
            if cmd in (LC_VERSION_MIN_IPHONEOS, LC_VERSION_MIN_MACOSX):
                minos, = struct.unpack_from("<I", self.data, off + 8)
                return ("ios" if cmd == LC_VERSION_MIN_IPHONEOS else "macos"), version(minos)
        return "none", "none"


def version(v):
    return f"{v >> 16}.{(v >> 8) & 0xFF}" + (f".{v & 0xFF}" if v & 0xFF else "")


def defined_external(ntype):
    return not ntype & N_STAB and ntype & N_EXT and ntype & N_TYPE == N_SECT


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    what, path = sys.argv[1:]
    o = Obj(path)
    if what == "hide":
        for at, name, ntype, _, ndesc in list(o.symbols()):
            if defined_external(ntype) and not name.startswith("_boids_"):
                o.data[at + 4] = ntype | N_PEXT
                if name == "_rust_eh_personality":
                    struct.pack_into("<H", o.data, at + 6, ndesc | N_WEAK_DEF)
        open(path, "wb").write(o.data)
    elif what == "exports":
        for _, name, ntype, _, _ in o.symbols():
            if defined_external(ntype) and not ntype & N_PEXT:
                print(name)
    elif what == "undefined":
        for _, name, ntype, _, ndesc in o.symbols():
            if not ntype & N_STAB and ntype & N_EXT and ntype & N_TYPE == N_UNDF:
                print(name + (" weak" if ndesc & N_WEAK_REF else ""))
    elif what == "platform":
        p, minos = o.platform()
        print(p, minos, CPUS.get(o.cputype, hex(o.cputype)))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
