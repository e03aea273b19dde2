/* fuzz_game.c - libFuzzer target for the .game reader, and for the solver
 * and its independent checks on whatever small game it accepts. */
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "util.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wmx_error err;
    game_def *g = game_parse((const char *)data, size, "fuzz.game", &err);
    if (!g)
        return 0;
    (void)game_write_bound(g);
    /* the input's last byte picks the variant and who moves first */
    unsigned pick = size ? data[size - 1] : 0;
    game_opts o;
    game_opts_init(&o);
    o.a_update = (int)(pick & 3);
    o.b_update = (int)((pick >> 2) & 3);
    o.first = (pick >> 4) & 1 ? GAME_B : GAME_A;
    o.k = (pick >> 5) & 1 ? 2 : 1;
    if (o.a_update == GAME_NEVER && o.b_update == GAME_NEVER && ((pick >> 6) & 1))
        o.k = 0;              /* the finite collapse */
    o.max_positions = 20000;
    game_graph G;
    if (game_build(&G, g, &o) == 0) {
        game_solve(&G);
        char why[256];
        uint8_t *naive = game_solve_naive(&G);
        for (uint32_t v = 0; naive && v < G.n; v++)
            if (naive[v] != G.winB[v])
                __builtin_trap();     /* the attractor and the fixpoint disagree */
        free(naive);
        if (game_check_strategy(&G, why, sizeof why) != 0)
            __builtin_trap();
        wmx_strbuf b = { 0 };
        for (uint32_t v = 0; v < G.n && v < 64; v++) {
            game_pos_str(&G, v, &b);
            game_move_str(&G, G.lab[v < G.nedges ? v : 0], &b);
        }
        free(b.s);
    }
    game_graph_free(&G);
    game_free(g);
    return 0;
}
