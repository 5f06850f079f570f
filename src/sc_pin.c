/*
 * sc_pin.c - pins: in-place int updates without the shard's lock, and the
 * writers' wait for them.
 *
 * apcu_inc on one hot key from many processes must not serialise on the
 * shard's mutex. An updater instead claims one of the shard's SC_PINS pin
 * slots (compare-and-swap 0 -> its pid, each slot on its own cache line),
 * finds the entry under the sequence counter as a fetch does, and changes
 * the int with one atomic read-modify-write. While a pin is held, no writer
 * frees or reuses memory the pin holder found, because:
 *
 *   updater: claim slot (seq_cst) ... lookup ... load seq (seq_cst), must
 *            equal the even value sampled before claiming
 *   writer:  seq += 1 (seq_cst RMW, window now odd) ... load pins_used and
 *            the slots (seq_cst), wait until each is 0
 *
 * Of two such sequences, at least one sees the other's write: either the
 * updater sees the counter moved and gives up (releasing the slot at once),
 * or the writer sees the slot held and waits before changing anything.
 * Updaters that sample the counter while it is odd never claim a slot.
 * pins_used (set once by the first updater of the shard, before its first
 * claim) lets shards that never had an updater skip the slot loads.
 *
 * Death: a process killed while holding a pin leaves its pid in the slot.
 * A waiting writer spins briefly, then checks whether the pid is gone (no
 * such process, or a zombie) and clears the slot for it; a pin holder that
 * is merely descheduled is waited for (sched_yield). The update itself is
 * one atomic instruction, so a killed updater never leaves a torn int.
 *
 * Locks: none of its own. Writers call sc_shard_write_begin with the shard's
 * write lock held.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include "sc_pin.h"

#define SC_PIN_SPINS 256

static uint32_t sc_cached_pid;
static bool sc_atfork_set;

static void sc_pid_forget(void)
{
    sc_cached_pid = 0;
}

uint32_t sc_self_pid(void)
{
    if (SC_UNLIKELY(!sc_cached_pid)) {
        if (!sc_atfork_set) {
            sc_atfork_set = true;
            pthread_atfork(NULL, NULL, sc_pid_forget);
        }
        sc_cached_pid = (uint32_t)getpid();
    }
    return sc_cached_pid;
}

bool sc_pid_gone(uint32_t pid)
{
    if (pid == 0) {
        return true;
    }
    if (kill((pid_t)pid, 0) != 0) {
        return errno == ESRCH;
    }
#ifdef __linux__
    {
        /* A killed child stays a zombie until its parent reaps it, and the
         * parent may be the very process waiting here. */
        char path[48], buf[512];
        FILE *f;
        size_t n;
        const char *close_paren;

        snprintf(path, sizeof(path), "/proc/%u/stat", pid);
        f = fopen(path, "r");
        if (!f) {
            return errno == ENOENT;
        }
        n = fread(buf, 1, sizeof(buf) - 1, f);
        fclose(f);
        buf[n] = '\0';
        /* "pid (comm) S ...": the state follows the last ')'. */
        close_paren = NULL;
        for (size_t i = 0; i < n; i++) {
            if (buf[i] == ')') {
                close_paren = buf + i;
            }
        }
        if (close_paren && close_paren[1] == ' ') {
            return close_paren[2] == 'Z' || close_paren[2] == 'X';
        }
    }
#endif
    return false;
}

sc_pin *sc_pin_claim(sc_shard *shard, uint32_t self)
{
    uint32_t first = self % SC_PINS;
    uint32_t i;

    if (SC_UNLIKELY(!__atomic_load_n(&sc_head(shard)->pins_used, __ATOMIC_RELAXED))) {
        __atomic_store_n(&sc_head(shard)->pins_used, 1, __ATOMIC_SEQ_CST);
    }
    for (i = 0; i < SC_PINS; i++) {
        sc_pin *pin = &shard->pins[(first + i) % SC_PINS];
        uint32_t expected = 0;

        if (__atomic_load_n(&pin->pid, __ATOMIC_RELAXED) == 0
            && __atomic_compare_exchange_n(&pin->pid, &expected, self, false, __ATOMIC_SEQ_CST,
                                           __ATOMIC_RELAXED)) {
            return pin;
        }
    }
    return NULL;
}

static void sc_pin_wait(sc_pin *pin)
{
    unsigned spins = 0;
    uint32_t holder;

    while ((holder = __atomic_load_n(&pin->pid, __ATOMIC_SEQ_CST)) != 0) {
        if (++spins < SC_PIN_SPINS) {
            sc_cpu_relax();
            continue;
        }
        spins = 0;
        if (sc_pid_gone(holder)) {
            /* Died holding the pin: its update was one atomic instruction,
             * done or not done; only the slot is left to free. */
            __atomic_compare_exchange_n(&pin->pid, &holder, 0, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
        } else {
            sched_yield();
        }
    }
}

void sc_pin_drain(sc_shard *shard)
{
    uint32_t i;

    if (!__atomic_load_n(&sc_head(shard)->pins_used, __ATOMIC_SEQ_CST)) {
        return;
    }
    for (i = 0; i < SC_PINS; i++) {
        sc_pin_wait(&shard->pins[i]);
    }
}

void sc_shard_write_begin(sc_shard *shard)
{
    /* A locked RMW: the odd value is visible before the slots are read. */
    __atomic_fetch_add(&sc_head(shard)->seq, 1, __ATOMIC_SEQ_CST);
    sc_pin_drain(shard);
}
