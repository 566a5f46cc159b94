/* The registered checks, in the order they see each access. Adding a check
 * means one function in the check file of its memory space, one row here,
 * and its fixtures in tests/advisor/fixtures. */
#include "analysis.h"

const wl_check wl_checks[] = {
  {"G_3", SP_GLOBAL, check_g3_strided, NULL},
  {"T_4", SP_GLOBAL, check_t4_readonly_path, NULL},
  {"G_2", SP_GLOBAL, check_g2_narrow, NULL},
  {"C_2", SP_GLOBAL, check_c2_uniform_loop_read, NULL},
  {"S_5", SP_GLOBAL, check_s5_reused_global, NULL},
  {"S_1", SP_SHARED, check_s1_bank_conflict, NULL},
  {"S_6", SP_SHARED, NULL, check_s6_private_staging},
  {"C_1", SP_CONSTANT, check_c1_constant_stride, NULL},
  {"C_3", SP_CONSTANT, check_c3_constant_divergent, NULL},
  {"L_3", SP_LOCAL, check_l3_local_sort, NULL},
  {"L_2", SP_LOCAL, check_l2_local_dynamic_index, NULL},
  {"L_1", SP_LOCAL, NULL, check_l1_local_size},
};
const size_t wl_check_count = sizeof wl_checks / sizeof wl_checks[0];
