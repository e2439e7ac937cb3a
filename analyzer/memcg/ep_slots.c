// SPDX-License-Identifier: GPL-2.0
/* A task's open reclaim episodes by serial (ep_slots.h). */
#include "ep_slots.h"

int ep_slot_find(const uint64_t *serials, int n, uint64_t serial)
{
	if (!serial)
		return -1;
	for (int i = 0; i < n; i++)
		if (serials[i] == serial)
			return i;
	return -1;
}

int ep_slot_take(uint64_t *serials, int n, uint64_t serial)
{
	int slot = 0;

	for (int i = 0; i < n; i++) {
		if (!serials[i]) {
			slot = i;
			break;
		}
		if (serials[i] < serials[slot])
			slot = i;
	}
	serials[slot] = serial;
	return slot;
}
