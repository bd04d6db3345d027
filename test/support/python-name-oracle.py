"""The Python interpreter as the oracle for where a folder of scripts' imports and names lead.

Usage: python3 -B python-name-oracle.py ROOT NAME < paths
Loads each file (paths relative to ROOT, one a line) as the interpreter runs a script: its own
folder first on `sys.path`, then ROOT. Prints one JSON object:
  {"imports": {path: [[line, module, file], ...]},
   "uses": {path: [[line, qualifier, "file:line"], ...]}}
`imports` holds each absolute import's module and the file `importlib` finds for it (null when
none is under ROOT). `uses` holds every use of NAME (`NAME`, `x.NAME`, `from m import NAME`)
whose value, looked up in the loaded module's namespace, is a function or class of ROOT, with
the qualifier written before it ("" for none) and where that value is declared.
"""
import ast
import importlib.util
import inspect
import json
import os
import sys


def relative(root, path):
    if not os.path.isabs(path):
        return None
    path = os.path.realpath(path)
    return os.path.relpath(path, root) if path.startswith(root + os.sep) else None


def declared(root, value):
    try:
        path = relative(root, inspect.getsourcefile(value))
        return None if path is None else f"{path}:{inspect.getsourcelines(value)[1]}"
    except (TypeError, OSError):
        return None


def main():
    root, name = os.path.realpath(sys.argv[1]), sys.argv[2]
    imports, uses = {}, {}
    for line in sys.stdin:
        path = line.strip()
        if not path:
            continue
        for module_name, module in list(sys.modules.items()):
            if relative(root, getattr(module, "__file__", None) or "/") is not None:
                del sys.modules[module_name]
        sys.path[:] = [os.path.dirname(os.path.join(root, path)), root] + sys.path[2:]
        source = open(os.path.join(root, path)).read()
        tree = ast.parse(source)
        records = []
        for node in ast.walk(tree):
            modules = []
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            for module_name in modules:
                spec = importlib.util.find_spec(module_name)
                origin = None if spec is None or spec.origin is None else relative(root, spec.origin)
                records.append([node.lineno, module_name, origin])
        imports[path] = sorted(records)
        spec = importlib.util.spec_from_file_location("__oracle__", os.path.join(root, path))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        found = []
        for node in ast.walk(tree):
            qualifier, value = None, None
            if isinstance(node, ast.Name) and node.id == name:
                qualifier, value = "", module.__dict__.get(name)
            elif isinstance(node, ast.Attribute) and node.attr == name:
                qualifier = ast.unparse(node.value)
                try:
                    value = getattr(eval(qualifier, module.__dict__), name)
                except Exception:
                    value = None
            elif isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if alias.name == name:
                        qualifier, value = "", module.__dict__.get(alias.asname or name)
            target = None if value is None else declared(root, value)
            if target is not None:
                found.append([node.lineno, qualifier, target])
        uses[path] = sorted(found)
    print(json.dumps({"imports": imports, "uses": uses}))


main()
