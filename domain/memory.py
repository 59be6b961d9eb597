"""Memory: pausing the cyclic garbage collector while a large model is built.

Folding a game and reviewing it create many small objects that stay alive (a 10,000-event
game holds hundreds of thousands); the collector would scan them again and again as they pile
up without freeing anything (it doubled rebuild times and nearly doubled review times).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def no_gc(*, promote: bool = True, promote_over: int = 0) -> Iterator[None]:
    """Pause the cyclic garbage collector while a Game or its review is built, then promote
    what was built.

    On the way out the new objects are moved straight to the oldest generation (``gc.freeze()``
    then ``gc.unfreeze()``, both O(1) list splices) rather than scanned once more by the young
    collection that re-enabling would trigger at once; anything among them that is garbage is
    still found by the next full collection. Skipped when someone else keeps objects frozen.
    Nesting is harmless: only the outermost pause re-enables the collector.

    ``promote=False`` skips the promotion: checking that nothing else is frozen walks every
    frozen object (``gc.get_freeze_count``), and the timeline freezes the views it loaded, so
    something run many times after it (a review) must not pay that walk each time.
    ``promote_over`` promotes only when at least that many new objects are waiting (the
    collector's young count, O(1) to read): a small build skips the walk, a big one is spared
    the young collection of everything it made (a 10,000-event review makes ~270,000 objects;
    scanning them costs about an eighth of the review, far more than walking what is frozen).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if promote and gc.get_count()[0] >= promote_over and gc.get_freeze_count() == 0:
            gc.freeze()
            gc.unfreeze()
        if enabled:
            gc.enable()
