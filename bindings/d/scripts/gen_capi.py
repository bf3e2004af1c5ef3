#!/usr/bin/env python3
"""gen_capi.py - writes bindings/d/source/jet/capi.d from include/jet.h.

Every JET_API function (accessors included: the library exports them),
every struct, enum and typedef, and every object-like JET_* constant of
jet.h becomes its extern(C) D declaration, in header order. Function-like
macros (the JET_F_* table builders) are left to the D API (jet.typed).

    gen_capi.py            rewrite capi.d
    gen_capi.py --check    exit 1 when capi.d differs from what jet.h gives

The layout of the generated structs is checked against the C compiler by
the package's unittest (source/jet/capi_sync.d).
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..', '..', '..'))
HEADER = os.path.join(ROOT, 'include', 'jet.h')
OUT = os.path.join(HERE, '..', 'source', 'jet', 'capi.d')
PROBE = os.path.join(HERE, '..', 'tests', 'layout_probe.c')

BASIC = {
    'void': 'void', 'bool': 'bool', 'char': 'char', 'double': 'double', 'float': 'float',
    'size_t': 'size_t', 'uint64_t': 'ulong', 'int64_t': 'long', 'uint32_t': 'uint',
    'int32_t': 'int', 'uint16_t': 'ushort', 'int16_t': 'short', 'uint8_t': 'ubyte',
    'int8_t': 'byte', 'uintptr_t': 'size_t', 'FILE': 'FILE', 'unsigned': 'uint', 'int': 'int',
}
D_KEYWORDS = {'in', 'out', 'ref', 'body', 'version', 'function', 'delegate', 'alias', 'module',
              'align', 'scope', 'default', 'debug', 'is', 'cast', 'package', 'shared'}


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


def d_name(name):
    return name + '_' if name in D_KEYWORDS else name


def d_type(base_tokens, stars):
    """base_tokens: e.g. ['const', 'char']; stars: list of qualifiers after
    each '*' (e.g. ['const', ''] for `*const *`), innermost first."""
    const = 'const' in base_tokens
    toks = [t for t in base_tokens if t not in ('const', 'struct', 'enum', 'unsigned')]
    if 'unsigned' in base_tokens and not toks:
        toks = ['unsigned']
    if len(toks) != 1:
        raise ValueError('type %r' % base_tokens)
    t = BASIC.get(toks[0], toks[0])
    if const and stars:
        t = 'const(%s)' % t
    elif const:
        t = 'const %s' % t
    for q in stars:
        t = t + '*'
        if q == 'const':
            t = 'const(%s)' % t
    return t


def parse_decl(decl):
    """One C declaration 'type declarator' (no initializer) -> (d_type, name)."""
    decl = decl.strip()
    m = re.match(r'^(.*?)\(\s*\*\s*(\w+)\s*\)\s*\((.*)\)$', decl, re.S)
    if m:  # function pointer
        ret = parse_type_only(m.group(1))
        params = parse_params(m.group(3))
        return 'extern(C) %s function(%s)' % (ret, ', '.join(params)), m.group(2)
    m = re.match(r'^(.*?)(\w+)\s*(\[[^\]]*\])?$', decl, re.S)
    if not m:
        raise ValueError('declaration %r' % decl)
    head, name, arr = m.group(1), m.group(2), m.group(3)
    base, stars = split_stars(head)
    t = d_type(base, stars)
    if arr:
        t = '%s[%s]' % (t, arr[1:-1].strip())
    return t, name


def split_stars(head):
    tokens = re.findall(r'\*|\w+', head)
    base, stars = [], []
    for tok in tokens:
        if tok == '*':
            stars.append('')
        elif stars and tok == 'const':
            stars[-1] = 'const'
        else:
            base.append(tok)
    return base, stars


def parse_type_only(text):
    base, stars = split_stars(text)
    return d_type(base, stars)


def parse_params(text):
    text = text.strip()
    if text in ('', 'void'):
        return []
    out = []
    for p in split_top(text, ','):
        p = p.strip()
        if re.match(r'^.*\[[^\]]*\]$', p):  # array parameter: a pointer
            p = re.sub(r'\s*(\w+)\s*\[[^\]]*\]$', r' *\1', p)
        t, n = parse_decl(p)
        out.append('%s %s' % (t, d_name(n)))
    return out


def split_top(text, sep):
    parts, depth, cur = [], 0, ''
    for ch in text:
        if ch in '([{':
            depth += 1
        elif ch in ')]}':
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur)
            cur = ''
        else:
            cur += ch
    parts.append(cur)
    return parts


def c_expr_to_d(expr):
    expr = expr.strip()
    expr = re.sub(r'\((jet_\w+_flags|uint64_t|uint32_t|unsigned)\)',
                  lambda m: 'cast(%s)' % BASIC.get(m.group(1), m.group(1)), expr)
    expr = expr.replace('UINT32_MAX', 'uint.max')
    return expr


def struct_body(body, indent):
    lines = []
    for decl in split_top(body, ';'):
        decl = ' '.join(decl.split())
        if not decl:
            continue
        m = re.match(r'^union\s*\{(.*)\}\s*(\w+)$', decl)
        if m:
            lines.append('%sunion _%s_t {' % (indent, m.group(2)))
            lines += struct_body(m.group(1), indent + '    ')
            lines.append('%s}' % indent)
            lines.append('%s_%s_t %s;' % (indent, m.group(2), d_name(m.group(2))))
            continue
        if '(' in decl:  # a function pointer member
            t, n = parse_decl(decl)
            lines.append('%s%s %s;' % (indent, t, d_name(n)))
            continue
        # `T a, *b, c[4]` -> one declaration per name
        first = split_top(decl, ',')
        m = re.match(r'^((?:const\s+|struct\s+|unsigned\s+)*\w+)\s*(.*)$', first[0])
        base = m.group(1)
        decls = [m.group(2)] + first[1:]
        for dcl in decls:
            t, n = parse_decl(base + ' ' + dcl.strip())
            lines.append('%s%s %s;' % (indent, t, d_name(n)))
    return lines


def generate():
    src = open(HEADER).read()
    # stop at the old names (macros for the current ones; not symbols)
    old = re.search(r'/\* \d+\. Old names', src)
    if old:
        src = src[:old.start()]
    text = strip_comments(src)
    # drop the preprocessor conditionals around JET_API / JET_INLINE etc.
    out = []
    pos = 0
    item = re.compile(
        r'(?P<define>^#define\s+(?P<dname>JET_[A-Z0-9_]+)[ \t]+(?P<dval>[^\n]*)$)'
        r'|(?P<tdstruct>typedef\s+struct\s+(?P<sname>\w+)\s*\{(?P<sbody>(?:[^{}]|\{[^{}]*\})*)\}\s*(?P<salias>\w+)\s*;)'
        r'|(?P<opaque>typedef\s+struct\s+(?P<oname>\w+)\s+(?P<oalias>\w+)\s*;)'
        r'|(?P<tdenum>typedef\s+enum\s+(?P<ename>\w+)\s*\{(?P<ebody>[^}]*)\}\s*\w+\s*;)'
        r'|(?P<tdfn>typedef\s+(?P<fret>[\w\s\*]+?)\(\s*\*\s*(?P<fname>\w+)\s*\)\s*\((?P<fparams>[^)]*)\)\s*;)'
        r'|(?P<tdscalar>typedef\s+(?P<tbase>\w+)\s+(?P<tname>\w+)\s*;)'
        r'|(?P<func>(?:JET_API|JET_ACCESSOR)\s+(?P<ret>[\w\s\*]+?)\s*\b(?P<name>jet_\w+)\s*\((?P<params>[^)]*)\))',
        re.M | re.S)
    skip_defines = {'JET_API', 'JET_INLINE', 'JET_ACCESSOR', 'JET_BODY', 'JET_H',
                    'JET_UNCONST_VAL', 'JET_KIND_OF'}
    seen_defines = set()
    declared = set()
    probe = []  # C statements printing what the D side must agree with
    for m in item.finditer(text):
        if m.group('define'):
            name, val = m.group('dname'), m.group('dval').strip()
            if name in skip_defines or name in seen_defines:
                continue  # (function-like macros do not match: no blank after the name)
            seen_defines.add(name)
            if not val.startswith('"'):
                probe.append('    C(%s);' % name)
            if val.startswith('"'):
                out.append('enum %s = %s;' % (name, val))
            elif re.match(r'^JET_WRITE_INDENT\((\d+)\)$', val):
                out.append('enum jet_write_flags %s = JET_WRITE_INDENT(%s);' %
                           (name, re.match(r'^JET_WRITE_INDENT\((\d+)\)$', val).group(1)))
            else:
                out.append('enum %s = %s;' % (name, c_expr_to_d(val)))
        elif m.group('tdstruct'):
            name = m.group('salias')
            # a struct only pointed at (struct jet_arena_chunk *): opaque
            for fwd in re.findall(r'\bstruct\s+(\w+)\s*\*', m.group('sbody')):
                if fwd != m.group('sname') and fwd not in declared:
                    declared.add(fwd)
                    out.append('struct %s;' % fwd)
            declared.add(name)
            out.append('struct %s {' % name)
            members = struct_body(m.group('sbody'), '    ')
            out += members
            out.append('}')
            probe.append('    S(%s);' % name)
            for line in members:
                fm = re.match(r'^    \S.*?(\w+);$', line)
                if fm and not line.startswith('        '):
                    field = fm.group(1)
                    if field.endswith('_') and field[:-1] in D_KEYWORDS:
                        field = field[:-1]
                    probe.append('    F(%s, %s);' % (name, field))
        elif m.group('opaque'):
            out.append('struct %s;' % m.group('oalias'))
        elif m.group('tdenum'):
            name = m.group('ename')
            members = [x.strip() for x in m.group('ebody').split(',') if x.strip()]
            out.append('enum %s : int {' % name)
            for mem in members:
                out.append('    %s,' % c_expr_to_d(mem))
            out.append('}')
            for mem in members:
                mn = mem.split('=')[0].strip()
                out.append('enum %s = %s.%s;' % (mn, name, mn))
                probe.append('    C(%s);' % mn)
        elif m.group('tdfn'):
            ret = parse_type_only(m.group('fret'))
            params = parse_params(m.group('fparams'))
            out.append('alias %s = extern(C) %s function(%s);' %
                       (m.group('fname'), ret, ', '.join(params)))
        elif m.group('tdscalar'):
            out.append('alias %s = %s;' % (m.group('tname'), BASIC[m.group('tbase')]))
        elif m.group('func'):
            ret = parse_type_only(m.group('ret'))
            params = parse_params(m.group('params'))
            out.append('%s %s(%s);' % (ret, m.group('name'), ', '.join(params)))
    # JET_WRITE_INDENT is function-like but needed by the constants above.
    head = '''// Generated by bindings/d/scripts/gen_capi.py from include/jet.h: do not edit.
// The whole public C API of jet as extern(C) declarations. Run the script
// after changing jet.h; `dub test` and CI check that this file is current
// and that every struct's layout matches the C compiler's.
module jet.capi;

import core.stdc.stdio : FILE;

extern (C) nothrow @nogc:

/// JET_WRITE_INDENT(n): pretty output with n spaces (1..15); 0 minified.
jet_write_flags JET_WRITE_INDENT(uint n) pure @safe { return (n & 15u) << 8; }
'''
    body = '\n'.join(out) + '\n'
    probe_text = PROBE_HEAD + '\n'.join(probe) + '\n    return 0;\n}\n'
    return head + '\n' + body, probe_text


PROBE_HEAD = '''/* Generated by bindings/d/scripts/gen_capi.py from include/jet.h: do not edit.
 * Prints what the C compiler says about jet.h: every struct's size and its
 * members' offsets, every constant's value. The D binding's unittest
 * (source/jet/capi_sync.d) builds and runs it and compares each line with
 * what jet.capi says. */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>

#include <jet.h>

#define S(T) printf("S %s %zu\\n", #T, sizeof(T))
#define F(T, m) printf("F %s.%s %zu\\n", #T, #m, offsetof(T, m))
#define C(k) printf("C %s %" PRId64 "\\n", #k, (int64_t)(k))

int main(void) {
'''


def main():
    outputs = dict(zip((OUT, PROBE), generate()))
    if len(sys.argv) > 1 and sys.argv[1] == '--check':
        for path, text in outputs.items():
            cur = open(path).read() if os.path.exists(path) else ''
            if cur != text:
                sys.stderr.write('%s is out of date: run bindings/d/scripts/gen_capi.py\n'
                                 % os.path.relpath(path, ROOT))
                return 1
        return 0
    for path, text in outputs.items():
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as f:
            f.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main())
