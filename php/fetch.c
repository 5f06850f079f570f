/*
 * php/fetch.c - apcu_fetch and apcu_entry: a fetched value into a zval.
 *
 * A fetch is the core's sc_fetch_value (sc_fetch.h, inlined into
 * apcu_fetch through php_sc_fetch_key): its first try, then the rest of
 * the fetch with a sink that php_sc_fetch_calls opens: strings are copied
 * straight into a zend_string, other encoded values into this thread's
 * scratch buffer, which is detached while a decoder may run user code
 * that fetches again.
 * apcu_entry reserves a missing key, computes its value and stores it
 * (php/store.c).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "fetch.h"
#include "php_shardcache.h"
#include "key.h"
#include "owner.h"
#include "store.h"
#include "value.h"
#include "zc.h"
#include "sc_cache.h"
#include "sc_fetch.h"

/* A fetch sink that copies strings straight into a zend_string and other
 * encoded values into the per-thread scratch buffer. */
typedef struct php_sc_sink {
    sc_sink base;
    zend_string *str;
} php_sc_sink;

static char *php_sc_sink_get(sc_sink *sink, uint8_t vtype, size_t len)
{
    php_sc_sink *ps = (php_sc_sink *)sink;

    if (vtype == SC_V_STRING) {
        if (ps->str) {
            zend_string_efree(ps->str);
        }
        ps->str = zend_string_alloc(len, 0);
        sink->buf = ZSTR_VAL(ps->str);
        sink->cap = len;
        sink->is_string = true;
    } else {
        if (SCG(scratch_cap) < len || !SCG(scratch)) {
            size_t cap = len < 256 ? 256 : len;
            SCG(scratch) = perealloc(SCG(scratch), cap, 1);
            SCG(scratch_cap) = cap;
        }
        sink->buf = SCG(scratch);
        sink->cap = SCG(scratch_cap);
        sink->is_string = false;
    }
    return sink->buf;
}

/* Puts buf (NULL is fine) on this thread's held list. */
static void php_sc_scratch_hold(char *buf)
{
    if (UNEXPECTED(SCG(nheld) == SCG(held_cap))) {
        uint32_t cap = SCG(held_cap) ? SCG(held_cap) * 2 : 8;
        SCG(held) = perealloc(SCG(held), cap * sizeof(char *), 1);
        SCG(held_cap) = cap;
    }
    SCG(held)[SCG(nheld)++] = buf;
}

/* Frees the buffers a fatal error left on the held list. */
void php_sc_scratch_release_held(void)
{
    while (SCG(nheld) > 0) {
        char *buf = SCG(held)[--SCG(nheld)];
        if (buf) {
            pefree(buf, 1);
        }
    }
}

/* Turns a fetched value into a zval; consumes the sink's string. On
 * failure, *parse_failed (when given) says whether serialized bytes could
 * not be parsed (php_sc_value_decode_ex). */
static bool php_sc_out_to_zval(php_sc_sink *sink, const sc_value_out *out, zval *dst, bool *parse_failed)
{
    bool ok = true;

    switch (out->vtype) {
    case SC_V_NULL:
        ZVAL_NULL(dst);
        break;
    case SC_V_FALSE:
        ZVAL_FALSE(dst);
        break;
    case SC_V_TRUE:
        ZVAL_TRUE(dst);
        break;
    case SC_V_LONG:
        ZVAL_LONG(dst, (zend_long)out->scalar);
        break;
    case SC_V_DOUBLE: {
        double d;
        memcpy(&d, &out->scalar, sizeof(d));
        ZVAL_DOUBLE(dst, d);
        break;
    }
    case SC_V_ZC:
        if (UNEXPECTED(php_sc_zc_is_object(out))) {
            goto decode;
        }
        ok = php_sc_zc_to_zval(out, dst) == PHP_SC_ZC_SET;
        break;
    case SC_V_STRING: {
        zend_string *s = sink->str;
        /* The core copied the string into the buffer it asked for. */
        ZEND_ASSERT(s != NULL && ZSTR_LEN(s) >= out->len);
        sink->str = NULL;
        ZSTR_LEN(s) = out->len;
        ZSTR_VAL(s)[out->len] = '\0';
        ZVAL_STR(dst, s);
        break;
    }
    default:
    decode: {
        /* Decoding may run user code (unserialize hooks) that fetches
         * again: detach the scratch buffer while decoding, keeping it on
         * the held list until the decoder returns (see php_shardcache.h). */
        char *scratch = SCG(scratch);
        size_t cap = SCG(scratch_cap);
        php_sc_scratch_hold(scratch);
        SCG(scratch) = NULL;
        SCG(scratch_cap) = 0;
        bool unparsed;
        ok = out->vtype == SC_V_ZC ? php_sc_zc_object_to_zval(out, dst, &unparsed)
                                   : php_sc_value_decode_ex(out->vtype, out->scalar, out->data, out->len, dst, &unparsed)
                                         == SUCCESS;
        if (parse_failed) {
            *parse_failed = unparsed;
        }
        /* Innermost last: a nested decode has taken its own off again. */
        ZEND_ASSERT(SCG(nheld) > 0 && SCG(held)[SCG(nheld) - 1] == scratch);
        SCG(nheld)--;
        if (SCG(scratch)) {
            pefree(scratch, 1);
        } else {
            SCG(scratch) = scratch;
            SCG(scratch_cap) = cap;
        }
        break;
    }
    }
    return ok;
}

bool php_sc_decode(uint8_t vtype, int64_t scalar, const char *data, size_t len, zval *dst)
{
    php_sc_sink sink = {{php_sc_sink_get, NULL, 0, false, 0}, NULL};
    sc_value_out out;

    out.vtype = vtype;
    out.borrowed = false;
    out.scalar = scalar;
    out.data = (char *)data;
    out.len = len;
    if (vtype == SC_V_STRING) {
        ZVAL_STRINGL(dst, data, len);
        return true;
    }
    return php_sc_out_to_zval(&sink, &out, dst, NULL);
}

/* php_sc_fetch_one's results: a miss, a hit, or a hit whose value could not be
 * decoded (an exception or warning is pending, dst is not set). APCu reports
 * the last as found ($success true) too, except when unserialize() could
 * not parse the value (with a notice, or an exception thrown during the
 * parse): that is a miss for APCu ($success false), and here. */
enum { PHP_SC_FETCH_MISS = 0, PHP_SC_FETCH_HIT = 1, PHP_SC_FETCH_UNDECODABLE = 2 };

/* The rest of a hit that is neither an int nor a zero-copy value used in
 * place: decoding, copying. Consumes the sink's string. */
static zend_never_inline int php_sc_fetch_finish(php_sc_sink *sink, const sc_value_out *out, zval *dst)
{
    int r;

    if (out->vtype == SC_V_ZC && !php_sc_zc_is_object(out)) {
        /* Not usable in place: copied; or laid out by another PHP, which
         * cannot read it here: a miss. */
        int z = php_sc_zc_to_zval(out, dst);
        r = z == PHP_SC_ZC_SET ? PHP_SC_FETCH_HIT : z == PHP_SC_ZC_FOREIGN ? PHP_SC_FETCH_MISS : PHP_SC_FETCH_UNDECODABLE;
    } else {
        bool parse_failed = false;
        r = php_sc_out_to_zval(sink, out, dst, &parse_failed) ? PHP_SC_FETCH_HIT
            : parse_failed ? PHP_SC_FETCH_MISS : PHP_SC_FETCH_UNDECODABLE;
    }

    if (sink->str) {
        zend_string_efree(sink->str);
    }
    return r;
}

/* The rest of a fetch whose first try declined (r: what sc_fetch_value
 * answered then): a value copied into the sink's buffer (a string is the
 * sink's zend_string), one that sc_cache_fetch_at found, or a miss.
 * Consumes the sink's string. Inlined: as a call of its own, after
 * sc_fetch_value_rest's, it costs a 1 KiB string's fetch 11 instructions
 * more (benchmarks/instr.sh fetch_str_1k). */
static zend_always_inline int php_sc_fetch_rest(int r, php_sc_sink *sink, const sc_value_out *out, zval *dst)
{
    ZEND_ASSERT(r == SC_FAST_COPIED || r == SC_FETCH_FOUND || r == SC_FETCH_MISSED);
    if (EXPECTED(r == SC_FAST_COPIED)) {
        if (EXPECTED(out->vtype == SC_V_STRING)) {
            zend_string *s = sink->str;
            ZSTR_VAL(s)[out->len] = '\0';
            ZVAL_STR(dst, s);
            return PHP_SC_FETCH_HIT;
        }
        return php_sc_fetch_finish(sink, out, dst);
    }
    if (r == SC_FETCH_FOUND) {
        /* sink->str is set only when a try asked for a string buffer (the
         * value may have changed between tries). */
        if (out->vtype == SC_V_LONG && !sink->str) {
            ZVAL_LONG(dst, (zend_long)out->scalar);
            return PHP_SC_FETCH_HIT;
        }
        if (out->vtype == SC_V_ZC && !sink->str && php_sc_zc_in_place(out, dst)) {
            return PHP_SC_FETCH_HIT;
        }
        return php_sc_fetch_finish(sink, out, dst);
    }
    if (UNEXPECTED(sink->str != NULL)) {
        zend_string_efree(sink->str);
    }
    return PHP_SC_FETCH_MISS;
}

/* A hit that sc_fetch_value returned and that is neither an int nor
 * a zero-copy value used in place: another scalar, or a zero-copy value
 * that must be copied (php_sc_fetch_finish). */
static zend_never_inline int php_sc_fetch_hit_rest(const sc_value_out *out, zval *dst)
{
    php_sc_sink sink = {{php_sc_sink_get, NULL, 0, false, 0}, NULL};

    return php_sc_fetch_finish(&sink, out, dst);
}

/* sc_fetch_calls.borrow: the thread borrows zero-copy values once it
 * entered the epoch (php_sc_zc_borrow_entered). */
static uint32_t php_sc_fetch_borrow(void)
{
    return php_sc_zc_borrow_entered();
}

/* sc_fetch_calls.enter: a fetch found a zero-copy value from outside the
 * epoch (nothing was counted or kept): enters it, when zero-copy is on. */
static bool php_sc_fetch_enter(void)
{
    if (!php_sc_zc_on) {
        return false;
    }
    (void)php_sc_zc_borrow();
    return true;
}

/* sc_fetch_calls.open: the sink of a fetch whose first try declined. */
static void php_sc_fetch_open(sc_sink *sink, uint32_t borrow)
{
    php_sc_sink *ps = (php_sc_sink *)sink;

    ps->base.get = php_sc_sink_get;
    ps->base.buf = NULL;
    ps->base.cap = 0;
    ps->base.is_string = false;
    ps->base.borrow = borrow;
    ps->str = NULL;
}

static const sc_fetch_calls php_sc_fetch_calls = {php_sc_now, php_sc_fetch_borrow, php_sc_fetch_enter,
                                                  php_sc_fetch_open};

/* Fetches one key into dst (now: SC_FETCH_NOW_LATER, or the time to use):
 * sc_fetch_value (sc_fetch.h), inlined into apcu_fetch, whose first try
 * does the commonest fetches (an int, a zero-copy value in place, a miss,
 * of an entry without a ttl) without another call and without the clock.
 * The core's rest of it is a call that is never inlined
 * (sc_fetch_value_rest), so that the first try keeps few values live; the
 * key and how far the first try got go to it by pointer: passed by value,
 * the call copied them with 16-byte loads right after the first try had
 * written them with narrower stores, a failed store forwarding per load,
 * about a tenth of a 1 KiB string's fetch (perf's cpu-clock samples;
 * fetch_str_1k; the figures are in the commit that made it so). */
static zend_always_inline int php_sc_fetch_key(const sc_key *kp, zval *dst, int64_t now)
{
    php_sc_sink sink;
    sc_value_out out;
    sc_key k = *kp;
    int r;

    r = sc_fetch_value(&php_sc_shared_cache, &k, now, &php_sc_fetch_calls, &SCG(fetch_memos), &sink.base, &out);
    if (EXPECTED(r == SC_FAST_BORROWED)) {
        if (EXPECTED(php_sc_zc_in_place_at(&out, dst, php_sc_zc_pad_for(k.len)))) {
            return PHP_SC_FETCH_HIT;
        }
        return php_sc_fetch_hit_rest(&out, dst);
    }
    if (EXPECTED(r == SC_FAST_LONG)) {
        ZVAL_LONG(dst, (zend_long)out.scalar);
        return PHP_SC_FETCH_HIT;
    }
    if (r == SC_FAST_SCALAR) {
        return php_sc_fetch_hit_rest(&out, dst);
    }
    if (r == SC_FAST_MISS) {
        return PHP_SC_FETCH_MISS;
    }
    return php_sc_fetch_rest(r, &sink, &out, dst);
}

/* A miss of the caller's own key: the key's preloaded entry, if any
 * (php/owner.c). */
static zend_never_inline int php_sc_fetch_public(zend_string *key, zval *dst, int64_t now)
{
    uint64_t before = sc_local.misses;
    sc_key k;
    int r;

    if (!php_sc_make_key(&k, key) || !php_sc_key_public(&k)) {
        return PHP_SC_FETCH_MISS;
    }
    r = php_sc_fetch_key(&k, dst, now);
    /* One fetch counts one hit or one miss: the second lookup's miss, or
     * the first one's when the second hit, is taken back (unless it was
     * the sampled one, already recorded in shared memory). */
    if (r == PHP_SC_FETCH_MISS) {
        if (sc_local.misses == before + 1 && ((before + 1) & (SC_MISS_SAMPLE - 1)) != 0) {
            sc_local.misses = before;
        }
    } else if (before != 0 && (before & (SC_MISS_SAMPLE - 1)) != 0) {
        sc_local.misses--;
    }
    return r;
}

static zend_always_inline int php_sc_fetch_one(zend_string *key, zval *dst, int64_t now)
{
    sc_key k;
    int r;

    if (UNEXPECTED(!php_sc_make_key(&k, key))) {
        return PHP_SC_FETCH_MISS;
    }
    r = php_sc_fetch_key(&k, dst, now);
    if (UNEXPECTED(r == PHP_SC_FETCH_MISS) && UNEXPECTED(SCG(public_reads))) {
        r = php_sc_fetch_public(key, dst, now);
    }
    return r;
}

/* php_sc_fetch_one, called (apcu_fetch of an array, of a key that is not a
 * string). */
static zend_never_inline int php_sc_fetch_one_call(zend_string *key, zval *dst, int64_t now)
{
    return php_sc_fetch_one(key, dst, now);
}

/* apcu_fetch(array). Decoding a value runs user code (__wakeup,
 * __unserialize) that may change the key array or a key behind a
 * reference: the keys are taken first, each with a reference of its own,
 * then fetched. */
static void php_sc_fetch_many(HashTable *in, zval *return_value, int64_t now)
{
    zval *k, found;
    uint32_t n = zend_hash_num_elements(in), count = 0;
    volatile uint32_t i = 0;
    zend_string **keys = n ? safe_emalloc(n, sizeof(zend_string *), 0) : NULL;

    ZEND_HASH_FOREACH_VAL(in, k) {
        ZVAL_DEREF(k);
        if (Z_TYPE_P(k) != IS_STRING) {
            php_error_docref(NULL, E_WARNING, "apc_fetch() expects a string or array of strings.");
            continue;
        }
        keys[count++] = zend_string_copy(Z_STR_P(k));
    } ZEND_HASH_FOREACH_END();
    array_init(return_value);
    zend_try {
        for (; i < count; i++) {
            if (php_sc_fetch_one_call(keys[i], &found, now) == PHP_SC_FETCH_HIT) {
                zend_hash_update(Z_ARRVAL_P(return_value), keys[i], &found);
            }
            zend_string_release(keys[i]);
        }
    } zend_catch {
        for (; i < count; i++) {
            zend_string_release(keys[i]);
        }
        if (keys) {
            efree(keys);
        }
        zend_bailout();
    } zend_end_try();
    if (keys) {
        efree(keys);
    }
}

ZEND_FUNCTION(shardcache_fetch)
{
    zval *key, *success = NULL;
    int r;

    ZEND_PARSE_PARAMETERS_START(1, 2)
        Z_PARAM_ZVAL(key)
        Z_PARAM_OPTIONAL
        Z_PARAM_ZVAL(success)
    ZEND_PARSE_PARAMETERS_END();

    if (success) {
        ZEND_TRY_ASSIGN_REF_FALSE(success);
    }
    if (EXPECTED(Z_TYPE_P(key) == IS_STRING)) {
        r = php_sc_fetch_one(Z_STR_P(key), return_value, SC_FETCH_NOW_LATER);
    } else if (Z_TYPE_P(key) == IS_ARRAY) {
        php_sc_fetch_many(Z_ARRVAL_P(key), return_value, php_sc_now());
        if (success) {
            ZEND_TRY_ASSIGN_REF_TRUE(success);
        }
        return;
    } else {
        zend_string *skey = zval_try_get_string(key);
        if (!skey) {
            RETURN_THROWS();
        }
        r = php_sc_fetch_one_call(skey, return_value, SC_FETCH_NOW_LATER);
        zend_string_release(skey);
    }
    if (r != PHP_SC_FETCH_MISS && success) {
        /* Found, even when decoding it threw (as in APCu). */
        ZEND_TRY_ASSIGN_REF_TRUE(success);
    }
    if (r != PHP_SC_FETCH_HIT) {
        RETURN_FALSE;
    }
}

/* apcu_entry's callback, and the store of what it returned. zend_try is a
 * setjmp: it sits in a function of its own, where no local is changed after
 * it (in the caller, gcc 16 saw a macro's temporary as possibly clobbered by
 * the longjmp). Returns false when the callback bailed out (a fatal error);
 * the caller then cleans up and bails out again. */
static bool php_sc_entry_compute(zend_fcall_info *fci, zend_fcall_info_cache *fcc, zend_string *key, zend_long ttl,
                                 zval *return_value)
{
    volatile bool ok = true;

    /* Stored as by apcu_add, as APCu does: a value stored for the key while
     * the callback ran (by it, or by a nested apcu_entry) stays. */
    zend_try {
        if (zend_call_function(fci, fcc) == SUCCESS && !EG(exception) && Z_TYPE_P(return_value) != IS_UNDEF) {
            /* Stamped when stored (as APCu): a slow callback must not
             * store a value that is already (nearly) expired. */
            php_sc_store_one(key, return_value, ttl, true, php_sc_now());
        }
    } zend_catch {
        ok = false;
    } zend_end_try();
    return ok;
}

ZEND_FUNCTION(shardcache_entry)
{
    zend_string *key;
    zend_fcall_info fci;
    zend_fcall_info_cache fcc;
    zend_long ttl = 0;
    sc_reservation_ticket ticket;
    php_sc_sink sink = {{php_sc_sink_get, NULL, 0, false, 0}, NULL};
    sc_value_out out;
    zval arg;
    int64_t now;
    sc_key k;
    bool bailed;

    ZEND_PARSE_PARAMETERS_START(2, 3)
        Z_PARAM_STR(key)
        Z_PARAM_FUNC(fci, fcc)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(ttl)
    ZEND_PARSE_PARAMETERS_END();

    if (!php_sc_make_key(&k, key)) {
        RETURN_NULL(); /* disabled: APCu returns null without calling back */
    }
    now = php_sc_now();
    php_sc_zc_sink_prepare(&sink.base);
    if (sc_cache_reserve(&php_sc_shared_cache, &k, now, &sink.base, &out, &ticket) == SC_OK) {
        if (EXPECTED(out.vtype == SC_V_LONG)) {
            if (UNEXPECTED(sink.str != NULL)) {
                zend_string_efree(sink.str);    /* asked for by an earlier try */
            }
            RETURN_LONG((zend_long)out.scalar);
        }
        if (!php_sc_out_to_zval(&sink, &out, return_value, NULL)) {
            RETVAL_FALSE;
        }
        return;
    }
    if (UNEXPECTED(SCG(public_reads)) && php_sc_fetch_public(key, return_value, now) != PHP_SC_FETCH_MISS) {
        /* The key's preloaded entry (php/owner.c). */
        sc_cache_release(&php_sc_shared_cache, &ticket);
        if (sink.str) {
            zend_string_efree(sink.str);
        }
        return;
    }
    /* Nothing cached: compute it, with the key reserved for us. */
    ZVAL_STR(&arg, key);
    fci.retval = return_value;
    fci.params = &arg;
    fci.param_count = 1;
    fci.named_params = NULL;
    /* A fatal error in the callback jumps out of it: release the key on
     * the way so that other processes do not wait for it. */
    bailed = !php_sc_entry_compute(&fci, &fcc, key, ttl, return_value);
    sc_cache_release(&php_sc_shared_cache, &ticket);
    if (sink.str) {
        zend_string_efree(sink.str);
    }
    if (bailed) {
        zend_bailout();
    }
}
