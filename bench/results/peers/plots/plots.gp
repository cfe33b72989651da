set terminal pngcairo size 1000,900 font ',10' noenhanced
set datafile separator '\t'
set grid
set key outside right top vertical
set output 'bcast-np2.png'
set multiplot layout 2,1 title 'bcast, np 2: dashed without mcorecoll, solid with (2026-11-21)'
set logscale xy
set autoscale xfix
set xlabel 'message bytes'
set ylabel 'µs per call'
set xtics ('1' 1, '16' 16, '256' 256, '4K' 4096, '64K' 65536, '1M' 1048576, '16M' 16777216)
unset yrange
set lmargin at screen 0.08
set rmargin at screen 0.62
plot 'plots/bcast-np2-openmpi-tuned.dat' using 1:2 with linespoints lc 1 dt 2 pt 6 title 'Open MPI default (coll/tuned)', 'plots/bcast-np2-openmpi-tuned.dat' using 1:3 with linespoints lc 1 dt 1 pt 7 title 'Open MPI default (coll/tuned) + mcorecoll', 'plots/bcast-np2-openmpi-sm.dat' using 1:2 with linespoints lc 2 dt 2 pt 6 title 'Open MPI coll/sm', 'plots/bcast-np2-openmpi-sm.dat' using 1:3 with linespoints lc 2 dt 1 pt 7 title 'Open MPI coll/sm + mcorecoll', 'plots/bcast-np2-mpich-default.dat' using 1:2 with linespoints lc 3 dt 2 pt 6 title 'MPICH default', 'plots/bcast-np2-mpich-default.dat' using 1:3 with linespoints lc 3 dt 1 pt 7 title 'MPICH default + mcorecoll', 'plots/bcast-np2-mpich-rg-on.dat' using 1:2 with linespoints lc 4 dt 2 pt 6 title 'MPICH release_gather on', 'plots/bcast-np2-mpich-rg-on.dat' using 1:3 with linespoints lc 4 dt 1 pt 7 title 'MPICH release_gather on + mcorecoll', 'plots/bcast-np2-mpich-rg-off.dat' using 1:2 with linespoints lc 5 dt 2 pt 6 title 'MPICH release_gather off', 'plots/bcast-np2-mpich-rg-off.dat' using 1:3 with linespoints lc 5 dt 1 pt 7 title 'MPICH release_gather off + mcorecoll'
unset logscale y
set ylabel 'with / without'
set yrange [0:*]
plot 1 with lines lc 'black' dt 3 notitle, 'plots/bcast-np2-openmpi-tuned.dat' using 1:4 with linespoints lc 1 pt 7 title 'Open MPI default (coll/tuned)', 'plots/bcast-np2-openmpi-sm.dat' using 1:4 with linespoints lc 2 pt 7 title 'Open MPI coll/sm', 'plots/bcast-np2-mpich-default.dat' using 1:4 with linespoints lc 3 pt 7 title 'MPICH default', 'plots/bcast-np2-mpich-rg-on.dat' using 1:4 with linespoints lc 4 pt 7 title 'MPICH release_gather on', 'plots/bcast-np2-mpich-rg-off.dat' using 1:4 with linespoints lc 5 pt 7 title 'MPICH release_gather off'
unset multiplot
unset logscale
set xtics autofreq
unset lmargin
unset rmargin
set output 'bcast-np4.png'
set multiplot layout 2,1 title 'bcast, np 4: dashed without mcorecoll, solid with (2026-11-21)'
set logscale xy
set autoscale xfix
set xlabel 'message bytes'
set ylabel 'µs per call'
set xtics ('1' 1, '16' 16, '256' 256, '4K' 4096, '64K' 65536, '1M' 1048576, '16M' 16777216)
unset yrange
set lmargin at screen 0.08
set rmargin at screen 0.62
plot 'plots/bcast-np4-openmpi-tuned.dat' using 1:2 with linespoints lc 1 dt 2 pt 6 title 'Open MPI default (coll/tuned)', 'plots/bcast-np4-openmpi-tuned.dat' using 1:3 with linespoints lc 1 dt 1 pt 7 title 'Open MPI default (coll/tuned) + mcorecoll', 'plots/bcast-np4-openmpi-sm.dat' using 1:2 with linespoints lc 2 dt 2 pt 6 title 'Open MPI coll/sm', 'plots/bcast-np4-openmpi-sm.dat' using 1:3 with linespoints lc 2 dt 1 pt 7 title 'Open MPI coll/sm + mcorecoll', 'plots/bcast-np4-mpich-default.dat' using 1:2 with linespoints lc 3 dt 2 pt 6 title 'MPICH default', 'plots/bcast-np4-mpich-default.dat' using 1:3 with linespoints lc 3 dt 1 pt 7 title 'MPICH default + mcorecoll', 'plots/bcast-np4-mpich-rg-on.dat' using 1:2 with linespoints lc 4 dt 2 pt 6 title 'MPICH release_gather on', 'plots/bcast-np4-mpich-rg-on.dat' using 1:3 with linespoints lc 4 dt 1 pt 7 title 'MPICH release_gather on + mcorecoll', 'plots/bcast-np4-mpich-rg-off.dat' using 1:2 with linespoints lc 5 dt 2 pt 6 title 'MPICH release_gather off', 'plots/bcast-np4-mpich-rg-off.dat' using 1:3 with linespoints lc 5 dt 1 pt 7 title 'MPICH release_gather off + mcorecoll'
unset logscale y
set ylabel 'with / without'
set yrange [0:*]
plot 1 with lines lc 'black' dt 3 notitle, 'plots/bcast-np4-openmpi-tuned.dat' using 1:4 with linespoints lc 1 pt 7 title 'Open MPI default (coll/tuned)', 'plots/bcast-np4-openmpi-sm.dat' using 1:4 with linespoints lc 2 pt 7 title 'Open MPI coll/sm', 'plots/bcast-np4-mpich-default.dat' using 1:4 with linespoints lc 3 pt 7 title 'MPICH default', 'plots/bcast-np4-mpich-rg-on.dat' using 1:4 with linespoints lc 4 pt 7 title 'MPICH release_gather on', 'plots/bcast-np4-mpich-rg-off.dat' using 1:4 with linespoints lc 5 pt 7 title 'MPICH release_gather off'
unset multiplot
unset logscale
set xtics autofreq
unset lmargin
unset rmargin
set output 'alltoall-np2.png'
set multiplot layout 2,1 title 'alltoall, np 2: dashed without mcorecoll, solid with (2026-11-21)'
set logscale xy
set autoscale xfix
set xlabel 'block bytes per peer'
set ylabel 'µs per call'
set xtics ('1' 1, '16' 16, '256' 256, '4K' 4096, '64K' 65536, '1M' 1048576)
unset yrange
set lmargin at screen 0.08
set rmargin at screen 0.62
plot 'plots/alltoall-np2-openmpi-tuned.dat' using 1:2 with linespoints lc 1 dt 2 pt 6 title 'Open MPI default (coll/tuned)', 'plots/alltoall-np2-openmpi-tuned.dat' using 1:3 with linespoints lc 1 dt 1 pt 7 title 'Open MPI default (coll/tuned) + mcorecoll', 'plots/alltoall-np2-openmpi-sm.dat' using 1:2 with linespoints lc 2 dt 2 pt 6 title 'Open MPI coll/sm', 'plots/alltoall-np2-openmpi-sm.dat' using 1:3 with linespoints lc 2 dt 1 pt 7 title 'Open MPI coll/sm + mcorecoll', 'plots/alltoall-np2-mpich-default.dat' using 1:2 with linespoints lc 3 dt 2 pt 6 title 'MPICH default', 'plots/alltoall-np2-mpich-default.dat' using 1:3 with linespoints lc 3 dt 1 pt 7 title 'MPICH default + mcorecoll', 'plots/alltoall-np2-mpich-rg-on.dat' using 1:2 with linespoints lc 4 dt 2 pt 6 title 'MPICH release_gather on', 'plots/alltoall-np2-mpich-rg-on.dat' using 1:3 with linespoints lc 4 dt 1 pt 7 title 'MPICH release_gather on + mcorecoll', 'plots/alltoall-np2-mpich-rg-off.dat' using 1:2 with linespoints lc 5 dt 2 pt 6 title 'MPICH release_gather off', 'plots/alltoall-np2-mpich-rg-off.dat' using 1:3 with linespoints lc 5 dt 1 pt 7 title 'MPICH release_gather off + mcorecoll'
unset logscale y
set ylabel 'with / without'
set yrange [0:*]
plot 1 with lines lc 'black' dt 3 notitle, 'plots/alltoall-np2-openmpi-tuned.dat' using 1:4 with linespoints lc 1 pt 7 title 'Open MPI default (coll/tuned)', 'plots/alltoall-np2-openmpi-sm.dat' using 1:4 with linespoints lc 2 pt 7 title 'Open MPI coll/sm', 'plots/alltoall-np2-mpich-default.dat' using 1:4 with linespoints lc 3 pt 7 title 'MPICH default', 'plots/alltoall-np2-mpich-rg-on.dat' using 1:4 with linespoints lc 4 pt 7 title 'MPICH release_gather on', 'plots/alltoall-np2-mpich-rg-off.dat' using 1:4 with linespoints lc 5 pt 7 title 'MPICH release_gather off'
unset multiplot
unset logscale
set xtics autofreq
unset lmargin
unset rmargin
set output 'alltoall-np4.png'
set multiplot layout 2,1 title 'alltoall, np 4: dashed without mcorecoll, solid with (2026-11-21)'
set logscale xy
set autoscale xfix
set xlabel 'block bytes per peer'
set ylabel 'µs per call'
set xtics ('1' 1, '16' 16, '256' 256, '4K' 4096, '64K' 65536, '1M' 1048576)
unset yrange
set lmargin at screen 0.08
set rmargin at screen 0.62
plot 'plots/alltoall-np4-openmpi-tuned.dat' using 1:2 with linespoints lc 1 dt 2 pt 6 title 'Open MPI default (coll/tuned)', 'plots/alltoall-np4-openmpi-tuned.dat' using 1:3 with linespoints lc 1 dt 1 pt 7 title 'Open MPI default (coll/tuned) + mcorecoll', 'plots/alltoall-np4-openmpi-sm.dat' using 1:2 with linespoints lc 2 dt 2 pt 6 title 'Open MPI coll/sm', 'plots/alltoall-np4-openmpi-sm.dat' using 1:3 with linespoints lc 2 dt 1 pt 7 title 'Open MPI coll/sm + mcorecoll'
unset logscale y
set ylabel 'with / without'
set yrange [0:*]
plot 1 with lines lc 'black' dt 3 notitle, 'plots/alltoall-np4-openmpi-tuned.dat' using 1:4 with linespoints lc 1 pt 7 title 'Open MPI default (coll/tuned)', 'plots/alltoall-np4-openmpi-sm.dat' using 1:4 with linespoints lc 2 pt 7 title 'Open MPI coll/sm'
unset multiplot
unset logscale
set xtics autofreq
unset lmargin
unset rmargin
set output 'barrier.png'
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set ylabel 'µs per call'
set xtics rotate by -30
set title 'barrier (2026-11-21)'
set key inside left top
unset xlabel
set yrange [*:*]
plot 'plots/barrier.dat' using 2:xtic(1) title 'without mcorecoll', '' using 3 title 'with mcorecoll'
