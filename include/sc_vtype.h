/*
 * sc_vtype.h - the type tag of a cached value, as the core stores it in
 * each entry (sc_entry.vtype). The core only tells scalars (no bytes) from
 * values with bytes (STRING, ARRAY, SERIALIZED) and reads LONG for
 * apcu_inc/dec/cas; what the bytes mean is the glue's business
 * (php/value.c, which turns zvals into these and back).
 *
 * Owns: nothing shared (constants only).
 * Locks: none.
 * Death: nothing to repair.
 */
#ifndef SC_VTYPE_H
#define SC_VTYPE_H

typedef enum sc_vtype {
    SC_V_NULL = 0, SC_V_FALSE = 1, SC_V_TRUE = 2, SC_V_LONG = 3, SC_V_DOUBLE = 4,
    SC_V_STRING = 5,      /* data = raw bytes, binary safe */
    SC_V_ARRAY = 6,       /* data = shardcache's own compact binary array format */
    SC_V_SERIALIZED = 7,  /* data = php serialize() output (objects, enums, arrays holding objects or PHP references),
                             or, after a 0x00 byte, the output of the apc.serializer in use (see php/value.c) */
    SC_V_ZC = 8           /* data = a zero-copy layout (php/zc.c): an array or string that readers
                             use in place, stored once (a reader that cannot use it in place copies it:
                             php/zc_copy.c); entry flagged SC_ENTRY_ZC (sc_epoch_layout.h) */
} sc_vtype;

#endif
