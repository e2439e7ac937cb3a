/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The world built from the replay input at the end (replay_build.c).
 */
#ifndef RS_REPLAY_BUILD_H
#define RS_REPLAY_BUILD_H

#include "replay_input_state.h"

int ri_build_world(struct rs_replay_input *ri, struct rs_error *err);

#endif
