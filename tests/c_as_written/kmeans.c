/* Rodinia's kmeans: each point's nearest cluster, through two helpers of the file that read the
 * point and the cluster centres through pointers (the point passed as feature + i*nfeatures). */
#include <float.h>

static float euclid_dist_2(const float *pt1, const float *pt2, int numdims)
{
    int i;
    float ans = 0.0f;
    for (i = 0; i < numdims; i++)
        ans += (pt1[i] - pt2[i]) * (pt1[i] - pt2[i]);
    return ans;
}

int find_nearest_point(const float *pt, int nfeatures, const float *pts, int npts)
{
    int index = 0, i;
    float min_dist = FLT_MAX;
    for (i = 0; i < npts; i++) {
        float dist = euclid_dist_2(pt, pts + i * nfeatures, nfeatures);
        if (dist < min_dist) {
            min_dist = dist;
            index = i;
        }
    }
    return index;
}

void assign(int npoints, int nfeatures, int nclusters, const float *feature, const float *clusters, int *membership)
{
    int i, index;
    /*@ begin PerfTuning (
    def performance_params { param TC[] = [32, 64, 128]; }
    def input_params { param npoints[] = [301]; param nfeatures[] = [5]; param nclusters[] = [7]; }
    def input_vars {
        decl dynamic float feature[npoints*nfeatures] = random; decl dynamic float clusters[nclusters*nfeatures] = random;
        decl dynamic int membership[npoints] = 0;
    }
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC)
    for (i = 0; i < npoints; i++) {
        index = find_nearest_point(feature + i * nfeatures, nfeatures, clusters, nclusters);
        membership[i] = index;
    }
    ) @*/
    /*@ end @*/
    /*@ end @*/
}
