// SPDX-License-Identifier: GPL-2.0
/*
 * Which terminal the browser opens. Apart from tui_screen.c because <term.h> defines a macro
 * for every terminfo capability (lines, columns, ...).
 */
#include <curses.h>
#include <term.h>
#include <unistd.h>

#include "tui.h"

/*
 * The terminal to open: TERM (name NULL), or the first fallback with a terminfo entry when
 * TERM has none (TERM=tmux-256color without the ncurses-term package, and the like); -1 when
 * none has. Probed with setupterm(), not newterm(): a newterm() that fails leaks the SCREEN it
 * allocated first (ncurses 6.4: new_prescr() in tinfo/lib_setup.c, forgotten by newterm() in
 * base/lib_newterm.c, whose _nc_forget_prescr() only clears the pointer without threads),
 * which made the sanitizer builds exit 1 on an unknown TERM.
 */
int tui_term_pick(const char **name)
{
	static const char *const terms[] = {
		NULL, "xterm-256color", "xterm", "screen", "vt100"
	};

	for (size_t i = 0; i < sizeof(terms) / sizeof(terms[0]); i++) {
		int e;

		if (setupterm(terms[i], STDOUT_FILENO, &e) == OK) {
			del_curterm(cur_term);
			*name = terms[i];
			return 0;
		}
	}
	return -1;
}
