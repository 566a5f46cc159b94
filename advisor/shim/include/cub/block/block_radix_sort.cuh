#include <cub/cub.cuh> /* warplint: the whole CUB stand-in */
