"""The browser page's console (issue 40): the console's own program, played for a page.

``session.PageSession`` runs the console for one page; ``workers.PageWorkers`` runs those sessions in a
worker process of their own and passes the pages' frames to them; ``menu`` is the page's first menu.
``scopa serve`` (the composition root, ``scopa.__main__``) attaches them to the room server, which never
imports the console: this package, above both the console and the client, joins them.
"""
