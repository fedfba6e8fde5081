// Package chbmit reads the per-case summaries of the CHB-MIT Scalp EEG
// Database (Guttag 2010, PhysioNet doi:10.13026/C2K01R), chbNN-summary.txt,
// into per-file seizure intervals.
//
// A summary gives the sampling rate, the channel montage (and later
// "Channels changed:" blocks that apply to the files after them), then for
// each chbNN_MM.edf its clock start and end times and its seizures in
// seconds from the start of that file. The real files have quirks that
// Parse accepts:
//
//   - two label styles, "Seizure Start Time:" and "Seizure 2 Start Time:",
//     and in chb24 several un-numbered seizures in one file;
//   - chb09_08 labels the end of seizure 2 "Seizure 1 End Time" (a typo):
//     starts and ends are paired in order, and a number that disagrees
//     with that order is reported in Summary.Warnings;
//   - chb24 has no file start and end times (File.HasTimes is false);
//   - clock times past midnight are written 24:xx:xx or more;
//   - double spaces after the colon;
//   - "Channel k: -" marks an unused channel slot in a montage.
//
// The 24 summaries list 198 seizures.
//
// For evaluating on the database (`ictal chbmit`), Patients reads the
// cases of a copy laid out as on PhysioNet (chbNN/chbNN-summary.txt beside
// the recordings) and CheckFiles finds a recording listed but absent.
// File.EEG gives a recording's EEG channels by acquire's rule
// (acquire.ChooseEEG on the montage's labels), the one the commands and
// the daemon apply: no unused slots, ECG, VNS or eye or limb leads.
// CommonChannels gives the EEG channels all of a patient's recordings
// share, by label: the 22 distinct derivations of the usual montage, 18 for the
// cases whose later montages drop four, and none for chb12, whose
// chb12_27 to chb12_29 use other montages; Usable then leaves out the
// recordings outside the most frequent montage. Tally pools the event
// scores of held-out recordings.
package chbmit
