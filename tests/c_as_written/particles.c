/* A particle update on arrays of structs, the layout of particle and molecular-dynamics codes. */
typedef struct { float x, y, z, w; } float4_t;

struct body { double m; float vx, vy; };

void advance(int n, float dt, float4_t *pos, const float4_t *vel, struct body *b)
{
    int i;
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param n[] = [301]; }
    def input_vars { decl dynamic float4_t pos[n] = random; decl dynamic float4_t vel[n] = random;
                     decl dynamic struct body b[n] = random; decl float dt = 0.01; }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (i = 0; i < n; i++) {
        pos[i].x += vel[i].x * dt;
        pos[i].y += vel[i].y * dt;
        pos[i].z += vel[i].z * dt;
        pos[i].w = pos[i].x * pos[i].x + pos[i].y * pos[i].y;
        b[i].vx = b[i].vx + (float)(dt / b[i].m);
    }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
