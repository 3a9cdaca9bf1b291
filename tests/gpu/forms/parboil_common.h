/* Index macro of a Parboil-style stencil code, in a header of its own. */
#ifndef PARBOIL_COMMON_H
#define PARBOIL_COMMON_H
#define Index3D(_nx, _ny, _i, _j, _k) ((_i) + _nx * ((_j) + _ny * (_k)))
#endif
