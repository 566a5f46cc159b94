/* The exercises, in the order a course would take them. The kernel files
 * are exercises/STEM.cu (the starting kernel) and solutions/STEM.cu. */
#include <stddef.h>

#include "lab.h"

extern const lab_problem_ops lab_transpose_problem, lab_rowsum_problem, lab_mix_problem,
    lab_histogram_problem, lab_spmv_problem, lab_reduce_problem, lab_particles_problem;

const lab_exercise lab_exercises[] = {
    {1, "1_transpose", "coalescing, through a transpose", "G_3", "lab_transpose_run", NULL,
     false, &lab_transpose_problem},
    {2, "2_rowsum", "bank conflicts, through padding a tile", "S_1", "lab_rowsum_run", NULL,
     false, &lab_rowsum_problem},
    {3, "3_mix", "divergent constant reads", "C_3", "lab_mix_run", NULL, false,
     &lab_mix_problem},
    {4, "4_histogram", "a private array in local memory", "L_2", "lab_histogram_run", NULL,
     false, &lab_histogram_problem},
    {5, "5_spmv", "read-only data through const __restrict__ or a texture", "T_4",
     "lab_spmv_run", "5_spmv_texture", true, &lab_spmv_problem},
    {6, "6_reduce", "a reduction with sequential addressing", "S_1", "lab_reduce_run", NULL,
     false, &lab_reduce_problem},
    {7, "7_particles", "from an array of structs to a struct of arrays", "G_3",
     "lab_particles_run", NULL, false, &lab_particles_problem},
};
const int lab_exercise_count = (int)(sizeof lab_exercises / sizeof lab_exercises[0]);

const lab_exercise *lab_find_exercise(int number) {
  for (int i = 0; i < lab_exercise_count; i++)
    if (lab_exercises[i].number == number) return &lab_exercises[i];
  return NULL;
}
