"""The designer's workbench in the browser (`cardlab serve`): a desk per tab over the lab's own
functions (desk.py), its Panel page (page.py) and the server (server.py)."""
