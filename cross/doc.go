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
//
// # Determinism across architectures
//
// The Go compiler fuses x*y + z into one multiply-add on arm64 (and
// ppc64x, s390x, riscv64, loong64, and amd64 from GOAMD64=v3), which
// rounds once instead of twice. The EDF reader's digital-to-physical
// scaling and the features package therefore round every product on its
// own (float64(x*y)), and the features take their logarithms from
// internal/detmath (acquire/edf's conformance test caught the scaling on
// arm64: 19.117647058823522 instead of 19.117647058823536); with that, the samples, the time-domain features and
// every model trained on them are bit-identical on amd64, arm64 and armv7.
// The spectral features are not: the Hann window goes through the
// standard library's math.Cos and the spectrum through gonum's FFT
// (dsp/fourier, fftpack's radf2/radf4 and its twiddle factors), both
// compiled with fusion on arm64; the test measured different bits for both
// on arm64 and under GOAMD64=v3 with identical inputs. Those are
// dependencies, so they are left alone: on such platforms the test checks
// the spectral features to a relative 1e-9 and says that the models
// trained on them were not compared. Checkpoints stay portable (their
// encoding is exact), but the same recording replayed on amd64 and arm64
// gives spectral features a few ulps apart, hence scores, and through
// learning models, that can differ in their last bits.
//
// # Emulated tests
//
// cross/test passes -short (CROSS_TEST_FLAGS overrides it), which skips
// only tests that are long because of their size (the classifier's
// million-update test). It sets ICTAL_EMULATED=1, under which two alert
// tests skip themselves, saying why: TestMQTTLastWillWhenTheDaemonDies and
// TestMQTTKilledDaemonDeliversQueuedAlertsAfterRestart re-execute their
// own test binary as the daemon to SIGKILL it, and qemu-user cannot exec a
// foreign-architecture binary without binfmt_misc. TestMQTTSinkNeverBlocksWithoutBroker
// allows a Sink call 100 ms instead of 10 ms under emulation (code is
// translated on first use); a blocked call would take seconds. The alert
// tests reach mosquitto on the host's loopback from the emulated process.
// Emulation costs about 20 to 30 times native speed, so cross/test runs
// with -short by default; acquire/synth is its longest package.
package cross
