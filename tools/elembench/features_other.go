//go:build !(386 || amd64 || arm64)

package main

func cpuFeatures() []string { return []string{"(no SIMD features elem uses)"} }
