"""Builds hashikit: the metadata is in ``pyproject.toml``; this adds the compiled modules.

A regular build compiles the modules listed in ``hashikit/_build.py`` with mypyc (a build
requirement, pinned in ``pyproject.toml``) and keeps their sources beside them.  It builds pure
Python, saying why, when ``HASHIKIT_PURE=1`` is set, when the build is editable or in place (the
sources stay the ones run), or when mypyc or the C compiler fails.
"""

import os
import runpy

from setuptools import Distribution, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
COMPILED = runpy.run_path(os.path.join(HERE, "hashikit", "_build.py"))["COMPILED"]


class _Platform(Distribution):
    """A distribution with extension modules (so that ``build_ext`` runs and may add them)."""

    def has_ext_modules(self):
        return True


class BuildCompiled(build_ext):
    def run(self):
        why = self._pure_reason()
        if why is None:
            extensions = []
            try:
                from mypyc.build import mypycify

                sources = [os.path.relpath(os.path.join(HERE, *name.split(".")) + ".py") for name in COMPILED]
                extensions = mypycify(["--ignore-missing-imports", "--follow-imports=silent", *sources],
                                      opt_level="3", group_name="hashikit")
                self.extensions = extensions
                for ext in extensions:  # as finalize_options does for the extensions known then
                    ext._full_name = self.get_ext_fullname(ext.name)
                    self.ext_map[ext._full_name] = ext
                    ext._links_to_dynamic = ext._needs_stub = False
                    ext._file_name = self.get_ext_filename(ext._full_name)
                super().run()
                return
            except (Exception, SystemExit) as exc:  # mypyc exits on a type error
                for ext in extensions:  # none half built: the sources are run instead
                    built = self.get_ext_fullpath(ext.name)
                    if os.path.exists(built):
                        os.remove(built)
                self.extensions = []
                why = f"compiling failed: {type(exc).__name__}: {exc}"
        print(f"hashikit: pure-Python build ({why})")

    def _pure_reason(self):
        if os.environ.get("HASHIKIT_PURE") == "1":
            return "HASHIKIT_PURE=1"
        if self.editable_mode or self.inplace:
            return "an editable or in-place build runs the sources"
        try:
            import mypyc  # noqa: F401
        except ImportError:
            return "mypyc is not installed"
        return None


if __name__ == "__main__":  # (as pip's build backend runs it; the tests read the classes above)
    setup(distclass=_Platform, cmdclass={"build_ext": BuildCompiled})
