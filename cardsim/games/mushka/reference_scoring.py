"""The scoring of the plain-Python Mushka engine (:mod:`.reference`): tricks written off, the
ace bonus, remises, the stop at 0, the end of a deal and of a match, and the returns
(MU-SCORE-*, MU-STOP-*, MU-MATCH-*).

The rules that turn a record into a record are module functions, so that the validation of
position dicts (:mod:`.validation`) uses them too; :class:`ReferenceScoring` applies them to the
engine's state. It is a base class of :class:`.reference.ReferenceMushka`, whose attributes it
reads and whose play methods it calls (``next_seat``, ``spades_trump``, ``after_trick``,
``start_deal``, ``is_terminal``).
"""
from __future__ import annotations

ACE_OF_SPADES = 12                     # rules §1: "As"


def ace_bonus_points(spades_trump: bool, rules) -> int:
    """MU-SCORE-3: 5 for the ace of spades, 10 when spades are trump."""
    return rules.ace_bonus * (2 if spades_trump else 1)


def record_after_trick(record: int, rules) -> int:
    """MU-SCORE-1, MU-STOP-3: a trick is −1; a record at 0 that did not stop
    (``stop_mode=declared``) restarts at ``start_points − 1`` (``start_points`` with
    ``overshoot_reset=start``)."""
    if record == 0 and rules.stop_mode == "declared":
        reset = rules.start_points
        return reset if rules.overshoot_reset == "start" else reset - 1
    return record - 1


def record_after_bonus(record: int, bonus: int) -> int:
    """MU-SCORE-3, MU-STOP-2: the ace bonus written off, clamped at 0 (no penalty for the
    overshoot)."""
    return max(0, record - bonus)


def remise_points(tricks: int, ace_holder: bool, rules) -> int:
    """MU-SCORE-2, MU-SCORE-4: what an active seat adds at the end of the deal: the remise (5)
    without a trick, 5 more for the ace holder without a trick (10)."""
    if tricks:
        return 0
    return rules.remise_points + (rules.ace_bonus if ace_holder else 0)


class ReferenceScoring:
    """The scoring methods of :class:`.reference.ReferenceMushka` (module docstring)."""

    def ace_bonus(self) -> int:
        """MU-SCORE-3: 5 for the ace of spades, 10 when spades are trump."""
        return ace_bonus_points(self.spades_trump(), self.rules)

    def void_deal(self) -> None:
        """MU-PASS-2, MU-SCORE-6: nothing is scored; the deal is over (a match deals again)."""
        self.void = True
        self.deal_over()

    def credit_lone_tricks(self) -> None:
        """MU-PASS-3: the lone player is credited with his tricks one at a time, each exactly
        like a won trick (bonus, stops, offers); then the end of the deal."""
        seat = self.active[0]
        while self.lone_tricks_left > 0:
            self.lone_tricks_left -= 1
            if self.win_trick(seat):
                return
        self.end_of_deal()


    def win_trick(self, seat: int) -> bool:
        """MU-SCORE-1, MU-STOP-3, MU-SCORE-3 (first trick), MU-STOP-1/2/4: a trick won (or
        credited) is written off at once; the ace bonus may follow; a record of 0 stops the
        game or is offered the stop. Returns True when play is interrupted (stop or offer)."""
        self.write_off_trick(seat)
        self.tricks_won[seat] += 1
        self.tricks_played += 1
        if self.rules.ace_bonus_timing == "first_trick":
            if seat == self.ace_holder and self.tricks_won[seat] == 1:
                self.take_ace_bonus(seat)
            elif seat != self.ace_holder:
                self.note_no_bonus(seat)
        return self.check_zero(seat, "play")

    def write_off_trick(self, seat: int) -> None:
        """MU-SCORE-1, MU-STOP-3: a trick written off (:func:`record_after_trick`)."""
        self.records[seat] = record_after_trick(self.records[seat], self.rules)

    def take_ace_bonus(self, seat: int) -> None:
        """MU-SCORE-3, MU-STOP-2: the holder writes off 5 (10 with spades trump), clamped at 0
        (no penalty for the overshoot)."""
        self.records[seat] = record_after_bonus(self.records[seat], self.ace_bonus())
        self.ace_bonus_taken = True

    def note_no_bonus(self, seat: int) -> None:
        """Rules §5: with ``ace_bonus_timing=first_trick``, a seat that wins a trick without
        writing off the bonus proves he does not hold the ace of spades."""
        self.excluded[seat].add(ACE_OF_SPADES)

    def check_zero(self, seat: int, at: str) -> bool:
        """MU-STOP-1, MU-STOP-4: a record of exactly 0 stops the game at once
        (``stop_mode=automatic``) or is offered the stop (``declared``). Returns True when
        the flow is interrupted."""
        if self.records[seat] != 0:
            return False
        if self.rules.stop_mode == "automatic":
            self.stop(seat)
        else:
            self.offer_stop(seat, at)
        return True

    def offer_stop(self, seat: int, at: str) -> None:
        """MU-STOP-4: the seat at 0 chooses to stop or to play on."""
        self.phase = "stop"
        self.stop_offer = (seat, at)
        self.to_move = seat

    def stop(self, seat: int) -> None:
        """MU-STOP-1/2, MU-MATCH-1: the seat stops at 0 and wins the game; nothing more of the
        deal is scored (write-offs already made stand, nobody is remised)."""
        self.stop_offer = None
        self.stopper = seat
        self.winners = [seat]
        self.to_move = None
        self.phase = "deal_over" if self.mode == "deal" else "match_over"

    def play_on(self) -> None:
        """MU-STOP-3/4: the offer is declined; the deal resumes where the offer came from:
        after a trick (play, lone crediting or the end of the deal), after the ace bonus at
        the end of the deal (remises, then the end offers), or after an end offer (the next
        one)."""
        seat, at = self.stop_offer
        self.stop_offer = None
        if at == "play":
            if len(self.active) == 1:
                self.credit_lone_tricks()
            else:
                self.after_trick()
        elif at == "bonus":
            self.remises()
            self.end_offers()
        else:
            self.end_offers(after=seat)

    def end_of_deal(self) -> None:
        """MU-SCORE-2/3/4, MU-STOP-4: 5 tricks played (or credited): the ace bonus at the end
        (``end_of_deal`` timing), the remises, then the end-of-deal stop offers."""
        if self.end_bonus():
            return
        self.remises()
        self.end_offers()

    def end_bonus(self) -> bool:
        """MU-SCORE-3 (``ace_bonus_timing=end_of_deal``), MU-STOP-2: the holder with at least
        one trick writes off the bonus now, clamped at 0, then a record of 0 stops or is
        offered the stop. Returns True when the flow is interrupted."""
        holder = self.ace_holder
        if (self.rules.ace_bonus_timing != "end_of_deal" or holder is None
                or self.tricks_won[holder] == 0):
            return False
        self.take_ace_bonus(holder)
        return self.check_zero(holder, "bonus")

    def remises(self) -> None:
        """MU-SCORE-2, MU-SCORE-4: an active seat without a trick adds the remise (5); the ace
        holder without a trick adds 5 more (10)."""
        for s in self.active:
            self.records[s] += remise_points(self.tricks_won[s], s == self.ace_holder, self.rules)

    def end_offers(self, after: int | None = None) -> None:
        """MU-STOP-4 (``stop_mode=declared``): every seat at 0 is offered the stop at the end
        of the deal, in order from the dealer's left (dealer last), beginning after the seat
        ``after`` that was just offered; then the deal is over."""
        if self.rules.stop_mode == "declared":
            order = [(self.dealer + 1 + i) % self.n for i in range(self.n)]
            first = 0 if after is None else order.index(after) + 1
            for seat in order[first:]:
                if self.records[seat] == 0:
                    self.offer_stop(seat, "end")
                    return
        self.deal_over()

    def deal_over(self) -> None:
        """MU-DEAL-1, MU-MATCH-2: a lone deal is over; a match deals again (the deal passes to
        the left, void deals included) or ends after ``max_deals`` deals with the lowest
        records winning."""
        self.to_move = None
        if self.mode == "deal":
            self.phase = "deal_over"
        elif self.rules.max_deals is not None and self.deal_number >= self.rules.max_deals:
            low = min(self.records)
            self.winners = [s for s in range(self.n) if self.records[s] == low]
            self.phase = "match_over"
        else:
            self.deal_number += 1
            self.dealer = self.next_seat(self.dealer)
            self.start_deal()

    def returns(self) -> list[float]:
        """Per seat: a deal's record change ``start_record − record`` (positive is good; 0 for
        a void deal); a match's: each loser −1/(n−1), the winners share the losers' total;
        zeros before the end."""
        if not self.is_terminal():
            return [0.0] * self.n
        if self.mode == "deal":
            return [float(a - b) for a, b in zip(self.start_records, self.records)]
        losers = [s for s in range(self.n) if s not in self.winners]
        loss = 1.0 / (self.n - 1)
        share = loss * len(losers) / len(self.winners) if self.winners else 0.0
        return [share if s in self.winners else -loss for s in range(self.n)]

