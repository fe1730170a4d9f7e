#!/usr/bin/env python3
"""Finding 7: anyone can lock an account.

Six wrong guesses from a stranger made the owner's correct password answer 429; one guess per 15
minutes kept it locked. The owner's client keeps the `device_token` of its last successful sign-in
and presents it: it must get in, while the stranger's guessing stays throttled.
"""

import sys

from flowstate_probe import Http, Rest, check, run_probes


def stranger_cannot_lock_owner(stack):
    owner_rest = Rest(stack)
    owner = owner_rest.sign_up("lockout")  # signed in once: her client holds a device token
    check(bool(owner.device_token), "a successful sign-in should hand out a device token")
    stranger = Rest(stack, Http())  # another machine
    statuses = [stranger.sign_in(owner.email, f"wrong guess {i}").status for i in range(6)]
    check(all(s in (401, 429) for s in statuses), f"the stranger's wrong guesses: {statuses}")
    check(429 in statuses or stranger.sign_in(owner.email, "one more").status == 429,
          f"six wrong guesses should throttle the stranger (guessing stays slow): {statuses}")
    # The stranger now has the right password too: still throttled (no device token).
    guessed = stranger.sign_in(owner.email, owner.password)
    check(guessed.status == 429, f"a client without a device token after six failures: {guessed.brief()}")
    check(bool(guessed.header("retry-after")), "429 without Retry-After")
    # The owner, from her own client with her device token, gets in.
    res = owner_rest.sign_in(owner.email, owner.password, owner.device_token)
    check(res.status == 200, f"the owner with her device token was locked out by a stranger: {res.brief()}")
    again = owner_rest.sign_in(owner.email, owner.password, res.json()["device_token"])
    check(again.status == 200, f"the owner's next sign-in with the new device token: {again.brief()}")


PROBES = [("07 lockout: six wrong guesses by a stranger do not lock out the owner's device", stranger_cannot_lock_owner)]

if __name__ == "__main__":
    sys.exit(run_probes(PROBES, sys.argv[1:]))
