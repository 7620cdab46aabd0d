/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the two model checkers (rbmodel, and rbreserve in ../reserve)
 * share: the set of state hashes a depth-first search prunes with, the
 * mix that builds a hash, the alphabet of a --replay string, and the
 * string form of their --json results.
 */
#ifndef RBM_SEARCH_H
#define RBM_SEARCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

uint64_t rbm_search_mix(uint64_t h, uint64_t x);

/* Add @h to the set; true if it was there already (a state explored). */
bool rbm_search_visit(uint64_t h);

/* Empty the set: the states of another bound have another future. */
void rbm_search_forget(void);

/* One choice of a --replay string, and back (-1: not a choice). */
char rbm_search_pick_char(int pick);
int rbm_search_char_pick(char c);

/* @s as a JSON string, quotes included. */
void rbm_json_string(FILE *f, const char *s);

/* Can --json @path be written?  Asked before exploring, not after. */
bool rbm_json_writable(const char *path);

#endif /* RBM_SEARCH_H */
