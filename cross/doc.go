// Package cross holds ictal's cross-compilation tooling and the test that
// the same seed gives the same bits on every architecture.
//
//	cross/build [TARGET...]   static ictald and ictal for arm64, armv7, armv6
//	                          and amd64 into bin/<target>/, sizes, the 15 MB
//	                          budget of ictald, and a static-link check
//	cross/test [TARGET...]    the unit tests of acquire, features, classifier,
//	                          alert and this package for arm64 and armv7
//	                          under qemu-user (go test -exec qemu-*-static)
//
// TestGoldenBits (golden_test.go) runs a simulated patient through the
// feature extractor and trains every algorithm × learner on the resulting
// stream, and compares SHA-256 hashes of the samples, of every feature
// column, of the scores and of every checkpoint with values recorded on
// linux/amd64 (testdata/golden.json). cross/test runs it under qemu, so a
// checkpoint written on an emulated arm64 or armv7 is compared with one
// written on amd64.
package cross
