/* Fang et al.'s measurements on a Tesla K20c (ms), transcribed from the
 * paper (Benchmarking the GPU memory at the warp level, Section 8): Table 5 (noise
 * filtering V0-V3), Table 6 (covariance V0-V4), Table 7 (MNF transform
 * V0-V2), Table 8 (serial, CUDA-MNF, CUBLAS-MNF). One row per image:
 * NO.1 614x1087, NO.2 753x1924, NO.3 781x6955, 224 bands each. */
#ifndef MNF_PAPER_K20C_H
#define MNF_PAPER_K20C_H

static const double paper_table5[3][4] = {
    {123.38, 25.96, 22.00, 20.88}, {254.08, 57.89, 55.55, 44.97}, {1011.15, 221.36, 206.18, 168.59}};
static const double paper_table6[3][5] = {{8262.08, 774.98, 750.53, 432.08, 269.42},
                                          {24163.80, 1692.44, 1649.07, 938.11, 626.61},
                                          {163899.69, 6377.08, 6181.60, 3537.05, 2366.40}};
static const double paper_table7[3][3] = {{137.38, 88.84, 67.99}, {298.27, 200.20, 158.67}, {599.02, 413.20, 273.15}};
/* serial, CUDA-MNF, CUBLAS-MNF */
static const double paper_table8[3][3] = {
    {62393.56, 958.75, 2923.20}, {141221.63, 1761.99, 3969.39}, {538294.40, 5796.17, 8888.73}};

#endif
