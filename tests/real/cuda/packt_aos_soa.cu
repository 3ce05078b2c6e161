#include<stdio.h>
#include<iostream>
#include<stdlib.h>
#include<string.h>


#define NUM_THREADS 256

#define IMG_SIZE 1048576

struct Coefficients_AOS {
  int* r;
  int* b;
  int* g;
  int* hue;
  int* saturation;
  int* maxVal;
  int* minVal;
  int* finalVal; 
};


__global__
void complicatedCalculation(Coefficients_AOS  data)
{
  int i = blockIdx.x*blockDim.x + threadIdx.x;


  int grayscale = (data.r[i] + data.g[i] + data.b[i])/data.maxVal[i];
  int hue_sat = data.hue[i] * data.saturation[i] / data.minVal[i];
  data.finalVal[i] = grayscale*hue_sat; 
}
