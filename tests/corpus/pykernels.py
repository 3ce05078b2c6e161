#!/usr/bin/env python3
"""pykernels.py FILE.py [NAME=VALUE...] — writes the kernel strings of a Python file (PyOpenCL's
examples pass their kernels to cl.Program as string literals, PyCUDA's to SourceModule) next to
it: OpenCL C as FILE.py.kN.cl, CUDA as FILE.py.kN.cu, N counting the file's kernel strings
of that language from 1 in source order; files of an earlier run that this one does not
write are removed. A string is a kernel string when it declares a kernel: `__global__`
makes it CUDA, `__kernel` or `kernel void` OpenCL C. With NAME=VALUE arguments, strings that use
%-formatting (`%(NAME)d`) are formatted with them, as the program does before building; VALUE
is read as a Python literal where it is one. Prints the files written."""
import ast
import glob
import os
import re
import sys


def write_if_changed(path, text):
    """Other tests read these files while a run writes them (ctest runs the corpus and the
    runners side by side): an unchanged file is left alone, a changed one replaced at once."""
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def main():
    src = sys.argv[1]
    values = {}
    for arg in sys.argv[2:]:
        name, _, value = arg.partition("=")
        try:
            values[name] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            values[name] = value
    with open(src, encoding="utf-8") as f:
        tree = ast.parse(f.read(), src)
    strings = [
        n for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]
    strings.sort(key=lambda n: (n.lineno, n.col_offset))
    count = {"cl": 0, "cu": 0}
    written = set()
    for node in strings:
        text = node.value
        if re.search(r"\b__global__\b", text):
            ext = "cu"
        elif re.search(r"\b(__kernel|kernel\s+void)\b", text):
            ext = "cl"
        else:
            continue
        if values and "%(" in text:
            text = text % values
        count[ext] += 1
        out = f"{src}.k{count[ext]}.{ext}"
        write_if_changed(out, text)
        written.add(out)
        print(out)
    for old in glob.glob(glob.escape(src) + ".k*.c[lu]"):
        if old not in written:
            os.remove(old)


if __name__ == "__main__":
    main()
