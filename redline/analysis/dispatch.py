"""Making a review's provider requests: one after another, or concurrently within the provider's limit.

Answers are handed back on the calling thread, in the order they arrive, so everything that files findings,
writes the cache and reports progress runs on one thread. Two failures are handled here rather than ending
the review at once:

- An answer cut off at the model's token limit (``truncated``) is no answer; the request is split in two and
  both halves asked again (a model's batch is a run of paragraphs; halving it halves what it must write), as
  long as it can be split.
- Any other failure ends the review, but not before the requests already running have been waited for and
  their answers handed over: their tokens were paid for and their findings are cached, so a retry of the run
  does not pay for them again and the failed run's stats show what it cost. Requests not started are not sent.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Generic, TypeVar

from .providers.base import ProviderError, ProviderResponse, Usage

J = TypeVar("J")


class _Run(Generic[J]):
    """One dispatch: the queue of requests, and the first failure."""

    def __init__(self, jobs: Sequence[J], split: Callable[[J], list[J] | None], spent: Callable[[Usage], None]) -> None:
        self.queue: deque[J] = deque(jobs)
        self.split = split
        self.spent = spent
        self.failure: BaseException | None = None

    def settle(self, job: J, outcome: Callable[[], ProviderResponse], answered: Callable[[J, ProviderResponse], None]) -> None:
        """Hand over one request's answer, or requeue its halves, or remember its failure."""
        try:
            response = outcome()
        except ProviderError as exc:
            halves = self.split(job) if exc.code == "truncated" and self.failure is None else None
            if halves:
                self.spent(exc.usage)
                self.queue.extendleft(reversed(halves))
            elif self.failure is None:
                self.failure = exc
            else:
                self.spent(exc.usage)
            return
        except BaseException as exc:  # re-raised once the running requests are settled
            if self.failure is None:
                self.failure = exc
            return
        answered(job, response)


def dispatch(jobs: Sequence[J], send: Callable[[J], ProviderResponse], answered: Callable[[J, ProviderResponse], None],
             *, workers: int, split: Callable[[J], list[J] | None], spent: Callable[[Usage], None]) -> None:
    """Send ``jobs`` (at most ``workers`` at once) and pass each answer to ``answered``; see the module
    docstring. ``split(job)`` gives the halves of a request whose answer was cut off (None: it cannot be
    split); ``spent(usage)`` records what a request that gave no usable answer cost. Raises the first failure
    that was neither split nor retried, after the running requests are settled."""
    run = _Run(jobs, split, spent)
    if workers <= 1 or len(jobs) <= 1:
        while run.queue and run.failure is None:
            job = run.queue.popleft()
            run.settle(job, lambda job=job: send(job), answered)
    else:
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="redline-review") as pool:
            running: dict[Future[ProviderResponse], J] = {}
            while True:
                while run.queue and run.failure is None and len(running) < workers:
                    job = run.queue.popleft()
                    running[pool.submit(send, job)] = job
                if not running:
                    break
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    run.settle(running.pop(future), future.result, answered)
    if run.failure is not None:
        raise run.failure
