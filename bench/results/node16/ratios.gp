# Ratio mcorecoll/MPI at np 16 on the 16-core node, for the path each size takes under the
# shipped np 16 rows of the decision table (from measured-2026-11-22.csv). gnuplot ratios.gp
set terminal pngcairo size 900,420 font ",10" noenhanced
set output 'ratios.png'
set multiplot layout 1,2
set logscale x 2
set xlabel 'bytes (bcast: message; alltoall: block)'
set ylabel 'time ratio, mcorecoll / MPI (below 1: faster)'
set yrange [0:1.2]
set grid
set key bottom right
set format x '%.0b%B'
set title 'MPI_Bcast, np 16'
plot 1 notitle lc rgb 'gray', \
     'bcast-openmpi.dat' using 1:3 with linespoints title 'vs Open MPI 4.1.4 (tuned)', \
     'bcast-mpich.dat' using 1:3 with linespoints title 'vs MPICH 4.0.2'
set title 'MPI_Alltoall, np 16'
plot 1 notitle lc rgb 'gray', \
     'alltoall-openmpi.dat' using 1:3 with linespoints title 'vs Open MPI 4.1.4 (tuned)', \
     'alltoall-mpich.dat' using 1:3 with linespoints title 'vs MPICH 4.0.2'
unset multiplot
