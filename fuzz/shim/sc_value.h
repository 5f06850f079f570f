/*
 * fuzz/shim/sc_value.h - stands in for include/sc_value.h when the core is
 * built without PHP (the fuzz target). The core only needs the value type
 * tags; the real header also declares the zval encoder, which needs php.h.
 * Keep the enum identical to include/sc_value.h (fuzz/build.sh checks it).
 */
#ifndef SC_VALUE_H
#define SC_VALUE_H

#include <stdint.h>

typedef enum sc_vtype {
    SC_V_NULL = 0, SC_V_FALSE = 1, SC_V_TRUE = 2, SC_V_LONG = 3, SC_V_DOUBLE = 4,
    SC_V_STRING = 5,
    SC_V_ARRAY = 6,
    SC_V_SERIALIZED = 7
} sc_vtype;

#endif
