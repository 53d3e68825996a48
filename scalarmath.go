package elem

import (
	"math"

	"github.com/simdkit/elem/internal/kernel"
)

// The scalar functions that the named calls' loops over short slices use
// (see writeSmallLoop in gen/elemgo.go): the op expressions of the
// registry, with math.X written mathX. A generic call such as
// elem.Sqrt[float32] is compiled in the package that calls it, and there
// the compiler inlines (or turns into an instruction, as math.Sqrt into
// SQRTSS) only functions of the packages that package imports itself:
// from a program that does not import math, math.Sqrt in the loop was a
// call per element. Through these wrappers, which a caller of elem can
// inline, the loop gets the instruction again.

func mathAbs(x float64) float64            { return math.Abs(x) }
func mathCeil(x float64) float64           { return math.Ceil(x) }
func mathFMA(x, y, z float64) float64      { return math.FMA(x, y, z) }
func mathFloat32bits(x float32) uint32     { return math.Float32bits(x) }
func mathFloat32frombits(b uint32) float32 { return math.Float32frombits(b) }
func mathFloor(x float64) float64          { return math.Floor(x) }
func mathRound(x float64) float64          { return math.Round(x) }
func mathRoundToEven(x float64) float64    { return math.RoundToEven(x) }
func mathSqrt(x float64) float64           { return math.Sqrt(x) }
func mathTrunc(x float64) float64          { return math.Trunc(x) }
func fma32(a, b, c float32) float32        { return kernel.FMA32(a, b, c) }
