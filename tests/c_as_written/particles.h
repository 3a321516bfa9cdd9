/* The particles' layout, shared by the program's files. */
#ifndef PARTICLES_H
#define PARTICLES_H
#define SOFTENING 0.5f
typedef struct { float x, y, z, w; } float4_t;
#endif
