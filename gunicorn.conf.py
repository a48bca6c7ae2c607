"""gunicorn settings shared by ``make run`` and the tests' servers (``tests/servers.py``).

The worker is gthread's threads behind a loop that reads each request whole before a thread
takes it (``gunicorn_worker.py``): a slow or stalled upload costs a buffer, never a thread.
Bind address, workers and threads come from the command line (``HOST``, ``PORT``, ``WORKERS``,
``THREADS`` in the Makefile).
"""

worker_class = "gunicorn_worker.BufferedThreadWorker"


def post_worker_init(worker):  # noqa: ANN001, ANN201 - gunicorn's hook signature
    """Once a worker has loaded the app: everything built so far (modules, the games' tables,
    the catalogues) moves out of the garbage collector's sight (``gc.freeze``), so a full
    collection walks only what requests create. Those collections were the slowest answers a
    warm server gave (``bench/review_bench.py``, ``bench/tobago_bench.py``)."""
    import gc

    gc.collect()
    gc.freeze()
