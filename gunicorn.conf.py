"""gunicorn settings shared by ``make run`` and the tests' servers (``tests/servers.py``).

The worker is gthread's threads behind a loop that reads each request whole before a thread
takes it (``gunicorn_worker.py``): a slow or stalled upload costs a buffer, never a thread.
Bind address, workers and threads come from the command line (``HOST``, ``PORT``, ``WORKERS``,
``THREADS`` in the Makefile).
"""

worker_class = "gunicorn_worker.BufferedThreadWorker"
