"""A local web app to play Hashiwokakero: ``hashikit serve`` (starlette and uvicorn, installed with hashikit).

:func:`hashikit.web.app.create_app` builds the Starlette application: a JSON API
(``/api/parse``, ``/api/solve``, ``/api/check``, ``/api/hint``, ``/api/generate``,
described at ``/api/openapi.json``) and the page in ``static/`` (plain ES modules
and SVG, no build step).
"""
