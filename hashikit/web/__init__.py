"""A local web app to play Hashiwokakero: ``hashikit serve`` (FastAPI and uvicorn, installed with hashikit).

:func:`hashikit.web.app.create_app` builds the application: a JSON API serving the use-cases of
:mod:`hashikit.service` (``/api/parse``, ``/api/solve``, ``/api/check``, ``/api/hint``,
``/api/analyze``, ``/api/convert``, ``/api/generate``; the OpenAPI description at ``/api/openapi.json`` is
generated from the typed models) and the page in ``static/`` (plain ES modules and SVG, no
build step).  It never imports the command line's modules, nor they it.

May import: anything of hashikit but the CLI (``web.cli``, the ``serve`` command, is the CLI's
way in); the page under ``static/`` reads the server's limits from ``/api/limits``-style fields.
"""
