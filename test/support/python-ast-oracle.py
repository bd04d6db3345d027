"""Python's own `ast` as the oracle for the code index's Python symbols and imports.

Usage: python3 python-ast-oracle.py ROOT PACKAGE < paths
Reads file paths (relative to ROOT) from stdin, one a line, and prints one JSON object:
  {"symbols": {path: [[container, name, kind, start, end], ...]},
   "imports": {path: [[line, specifier, [names], [files]], ...]}}
`symbols` lists every function and class, nested ones included, `container` being the dotted
path of the enclosing classes and functions ("" at top level). `imports` lists each import
statement's module as written (leading dots for relative ones) and the files of ROOT it names:
the module (`mod.py` or `mod/__init__.py`) and, for `from pkg import name`, a submodule `name`.
ROOT is the folder of the package named PACKAGE (so `PACKAGE.x.y` is ROOT/x/y). Imports of
other packages name no file. Files that do not parse are left out.
"""
import ast
import json
import os
import sys


def visit(node, container, out):
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            kind = "class" if isinstance(child, ast.ClassDef) else "function"
            out.append([container, child.name, kind, child.lineno, child.end_lineno])
            visit(child, f"{container}.{child.name}" if container else child.name, out)
        else:
            visit(child, container, out)


def module_file(root, parts):
    base = os.path.join(root, *parts) if parts else root
    for candidate in (base + ".py", os.path.join(base, "__init__.py")):
        if parts and os.path.isfile(candidate) or not parts and candidate.endswith("__init__.py") and os.path.isfile(candidate):
            return os.path.relpath(candidate, root)
    return None


def imports_of(root, package, path, tree):
    records = []
    folder = os.path.dirname(path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                files = []
                if parts[0] == package:
                    found = module_file(root, parts[1:])
                    if found:
                        files.append(found)
                records.append([node.lineno, alias.name, ["*"], files])
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            names = [alias.name for alias in node.names]
            if node.level > 0:
                base = folder.split("/") if folder else []
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                parts = base + (module.split(".") if module else [])
            elif module.split(".")[0] == package:
                parts = module.split(".")[1:]
            else:
                records.append([node.lineno, module, names, []])
                continue
            files = []
            found = module_file(root, parts)
            if found:
                files.append(found)
            for name in names:
                submodule = module_file(root, parts + [name]) if name != "*" else None
                if submodule and submodule not in files:
                    files.append(submodule)
            records.append([node.lineno, "." * node.level + module, names, files])
    return sorted(records, key=lambda record: record[0])


def main():
    root, package = sys.argv[1], sys.argv[2]
    symbols, imports = {}, {}
    for line in sys.stdin:
        path = line.strip()
        if not path:
            continue
        try:
            with open(os.path.join(root, path), encoding="utf-8") as handle:
                tree = ast.parse(handle.read())
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        found = []
        visit(tree, "", found)
        symbols[path] = found
        imports[path] = imports_of(root, package, path, tree)
    json.dump({"symbols": symbols, "imports": imports}, sys.stdout)


main()
