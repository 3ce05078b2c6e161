
    __kernel void mandelbrot(__global float2 *q,
                     __global ushort *output, ushort const maxiter)
    {
        int gid = get_global_id(0);
        float nreal, real = 0;
        float imag = 0;

        output[gid] = 0;

        for(int curiter = 0; curiter < maxiter; curiter++) {
            nreal = real*real - imag*imag + q[gid][0];
            imag = 2* real*imag + q[gid][1];
            real = nreal;

            if (real*real + imag*imag > 4.)
                 output[gid] = curiter;
        }
    }
    