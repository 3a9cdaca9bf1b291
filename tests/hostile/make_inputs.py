#!/usr/bin/env python3
"""Writes the hostile inputs of tests/hostile/run.sh into DIR.

   make_inputs.py DIR SAMPLES_DIR
"""
import os
import random
import sys

out, samples = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)


def write(name, data):
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(os.path.join(out, name), mode) as f:
        f.write(data)


STENCIL = """
void stencil_{i}(const float in[1000000], float out[1000000]) {{
    for (int i = 1; i < 1000000 - 1; i++)
        out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}}
"""

random.seed(20261125)
write("good.c", open(os.path.join(samples, "emboss.c")).read())
write("empty.c", "")
write("binary.c", bytes(random.getrandbits(8) for _ in range(65536)))
write("not_utf8.c", b"/* \xff\xfe caf\xe9 */\nint main(void) { const char *s = \"\xc3\x28\"; return s[0]; }\n")
write("nul_bytes.c", b"int main(void) {\0 return 0; }\n" + STENCIL.format(i=0).encode().replace(b"out[i] =", b"out[i] =\0"))
write("deep_parens.c", "int f(void) { return " + "(" * 100000 + "1" + ")" * 100000 + "; }\n")
write("unbalanced_parens.c", "int f(void) { return " + "(" * 100000 + ";}\n")
write("deep_braces.c", "void f(void) " + "{" * 100000 + "}" * 100000 + "\n")
write("long_line.c", "int x = " + "+".join(["1"] * 1400000) + ";\n" + STENCIL.format(i=0))
write("only_comment.c", "/* nothing but a comment */\n")
write("unterminated_comment.c", STENCIL.format(i=0) + "/* never closed\n")
write("stray_directive.c", "#if 1\n" + STENCIL.format(i=0) + "#else\n")
# Macros that expand to a lot (the preprocessor's output is what is analysed).
bomb = "#define A0 x\n" + "".join(f"#define A{k} A{k-1} A{k-1}\n" for k in range(1, 18))
write("macro_bomb.c", bomb + "int x;\nint f(void) { return 0; }\n/* A17 */\n")
# 100,000 lines: plain code with a stencil now and then.
lines = []
for k in range(2000):
    if k % 40 == 0:
        lines.append(STENCIL.format(i=k))
    lines.append(f"int g_{k}(int a) {{\n" + "".join(f"    a = a * {j} + {k};\n" for j in range(45)) + "    return a;\n}\n")
write("huge.c", "".join(lines))
write("many_nests.c", "".join(STENCIL.format(i=k) for k in range(400)))
