/*
 * php/owner.h - isolation by Unix user (shardcache.isolation): whose
 * entries a process sees (php/owner.c).
 */
#ifndef SHARDCACHE_OWNER_H
#define SHARDCACHE_OWNER_H

#include "php.h"
#include "sc_cache.h"

/* The owner of the entries apc.preload_path loads with isolation on: no
 * uid (uid_t -1 is nobody's). */
#define PHP_SC_OWNER_PUBLIC UINT32_MAX
/* Reads the effective uid into SCG(owner_*): at request start and after
 * posix_setuid / posix_seteuid. */
void php_sc_owner_refresh(void);
/* After every extension started: wraps posix_setuid / posix_seteuid. */
void php_sc_owner_startup(void);
void php_sc_owner_shutdown(void);
/* Around apc.preload_path's stores: they make public entries (isolation on). */
uint64_t php_sc_owner_preload_begin(void);
void php_sc_owner_preload_end(uint64_t saved);
/* Turns a key made by php_sc_make_key into the key of its preloaded
 * (public) entry; false when no public entry can exist. */
bool php_sc_key_public(sc_key *k);
/* Gives the core the owner of an entry (sc_cache.owner_of) when isolation
 * is on: evictions then keep each owner's fair share (sc_fair.h). */
void php_sc_owner_bind(sc_cache *c);
/* The owner an entry's hash was made for (false: none known). */
bool php_sc_owner_of(const sc_entry_meta *m, uint32_t *owner);
/* The caller's own entry, or a public one (owner set when not NULL). */
bool php_sc_owner_visible(const sc_entry_meta *m, uint32_t *owner);
/* A tenant: isolation on and not root. Its figures count only its own
 * entries and activity, or are segment-wide totals (php/info.c). */
bool php_sc_owner_tenant(void);
/* Visible, and not a public entry hidden by the caller's own of the key.
 * A public entry's hits and access time, which every user's reads move,
 * are cleared in *m for a tenant. */
bool php_sc_owner_listed(sc_entry_meta *m, int64_t now);
/* The snapshot of key as the caller sees it: its own entry, else a
 * public one (its hits and access time cleared for a tenant, as
 * php_sc_owner_listed does); NULL (nothing to free) when neither; *m
 * filled. */
sc_snapshot *php_sc_owner_snapshot_key(zend_string *key, int64_t now, bool with_values, sc_entry_meta *m);
/* apcu_clear_cache: root (isolation on) clears all, others their own. */
void php_sc_owner_clear(void);

#endif
