/*
 * util/sha256.h - SHA-256 (FIPS 180-4), for key fingerprints only: the
 * project links no crypto library of its own (libsodium sits behind
 * libzmq), and a fingerprint people compare needs a standard hash.
 */
#ifndef BC_UTIL_SHA256_H
#define BC_UTIL_SHA256_H

#include <stddef.h>
#include <stdint.h>

void bc_sha256(const void *data, size_t len, uint8_t out[32]);

#endif
