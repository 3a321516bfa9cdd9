/* The particle update through struct variables of the nest: an element loaded whole, updated by field, stored whole. */
typedef struct { float x, y, z, w; } float4_t;

void advance(int n, float dt, float4_t *pos, const float4_t *vel)
{
    int i;
    /*@ begin PerfTuning (
    def performance_params { }
    def input_params { param n[] = [301]; }
    def input_vars { decl dynamic float4_t pos[n] = random; decl dynamic float4_t vel[n] = random; decl float dt = 0.01; }
    ) @*/
    /*@ begin Loop(transform CUDA(mapping='auto')
    for (i = 0; i < n; i++) {
        float4_t p = pos[i];
        const float4_t v = vel[i];
        p.x += v.x * dt;
        p.y += v.y * dt;
        p.w = p.x * p.x + p.y * p.y;
        pos[i] = p;
    }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
