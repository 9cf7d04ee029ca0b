/*
 * test_replay - the records an agent keeps for a coordinator that comes back
 * (agent/session/replay.c): what is put reads back byte for byte in order,
 * across the ring's end; old seconds make room only before keep_from, and a
 * record that would need a newer one dropped is refused (-ENOSPC) with the
 * ring unchanged; has_from says whether every second from k on is still held.
 */
#include <errno.h>
#include <string.h>

#include "session/replay.h"
#include "bc_test.h"

/* the bytes of second k's message of length len: recognisable and checkable */
static void s_fill(uint8_t *b, uint32_t k, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		b[i] = (uint8_t)(k * 31 + i);
}

static int s_same(const uint8_t *b, uint32_t k, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (b[i] != (uint8_t)(k * 31 + i))
			return 0;
	return 1;
}

int main(void)
{
	struct bc_replay *r = bc_replay_new(4, 1, 0);
	static uint8_t buf[1 << 20];
	const struct bc_replay_ent *e;
	const uint8_t *b;
	uint32_t k, i, first;
	size_t len;

	CHECK(r && r->cap == bc_replay_bytes(4, 1));
	if (!r)
		TEST_DONE();
	/* everything may go: a long run of varied sizes wraps the ring many times */
	r->keep_from = UINT32_MAX;
	for (k = 0; k < 500; k++) {
		len = 100 + (bc_test_rand() % 9000);
		s_fill(buf, k, len);
		CHECK(bc_replay_put(r, 7, k, buf, len) == 0);
	}
	/* what is held is the newest seconds, contiguous, each intact, in order */
	CHECK(r->n > 2);
	first = bc_replay_at(r, 0, &b)->second;
	for (i = 0; i < r->n; i++) {
		e = bc_replay_at(r, i, &b);
		CHECK(e->second == first + i && e->type == 7);
		CHECK(s_same(b, e->second, e->len));
	}
	CHECK(first + r->n == 500);
	CHECK(bc_replay_has_from(r, first) && !bc_replay_has_from(r, first - 1));
	/* a coordinator silent since keep_from: nothing newer leaves, a put that needs it fails */
	r->keep_from = first;
	len = r->cap; /* more than the free room, whatever it is */
	s_fill(buf, 500, len);
	i = r->n;
	CHECK(bc_replay_put(r, 7, 500, buf, len) == -ENOSPC);
	CHECK(r->n == i && bc_replay_at(r, 0, &b)->second == first);
	for (i = 0; i < r->n; i++) {
		e = bc_replay_at(r, i, &b);
		CHECK(s_same(b, e->second, e->len));
	}
	/* one second more may go: a put drops at most it, and keeps the rest intact */
	r->keep_from = first + 1;
	s_fill(buf, 500, 100);
	i = (uint32_t)bc_replay_put(r, 7, 500, buf, 100);
	k = bc_replay_at(r, 0, &b)->second;
	CHECK((int)i == 0 || (int)i == -ENOSPC);
	CHECK(k == first || k == first + 1);
	CHECK((int)i == -ENOSPC || bc_replay_at(r, r->n - 1, &b)->second == 500);
	for (i = 0; i < r->n; i++) {
		e = bc_replay_at(r, i, &b);
		CHECK(s_same(b, e->second, e->len));
	}
	bc_replay_free(&r);
	CHECK(!r);

	/* the entries' ring also bounds: two a second plus the end, oldest go first */
	r = bc_replay_new(2, 1, 0);
	r->keep_from = UINT32_MAX;
	for (k = 0; k < 100; k++) {
		s_fill(buf, k, 16);
		CHECK(bc_replay_put(r, 1, k, buf, 16) == 0);
	}
	CHECK(r->n == r->ent_cap && bc_replay_at(r, 0, &b)->second == 100 - r->ent_cap);
	/* the drain is never before keep_from: it stays whatever comes */
	r->keep_from = 95;
	s_fill(buf, 0xffffffffu, 16);
	CHECK(bc_replay_put(r, 2, 0xffffffffu, buf, 16) == 0);
	e = bc_replay_at(r, r->n - 1, &b);
	CHECK(e->second == 0xffffffffu && e->type == 2 && s_same(b, e->second, 16));
	CHECK(bc_replay_has_from(r, 95) && !bc_replay_has_from(r, 10));
	/* an empty ring takes a record as large as itself, and none larger */
	bc_replay_free(&r);
	r = bc_replay_new(1, 1, 0);
	len = r->cap;
	s_fill(buf, 3, len);
	CHECK(bc_replay_put(r, 1, 3, buf, len) == 0);
	CHECK(bc_replay_put(r, 1, 4, buf, len + 1) == -ENOSPC);
	bc_replay_free(&r);
	TEST_DONE();
}
