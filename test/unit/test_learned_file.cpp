#include "catch.hpp"

#include <dirent.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "decisions/learned_file.hpp"

using namespace mcorecoll;

namespace {

LearnedKey key() {
  LearnedKey k;
  k.node = "AMD EPYC 7B13 (2 packages, 8 NUMA domains, 128 cores, 256 PUs)";
  k.ranks_per_node = 128;
  k.nodes = 4;
  k.mpi = "Open MPI v4.1.4, package: Debian OpenMPI";
  k.mcorecoll = "0.1.0";
  return k;
}

// `others`: one or two names, comma-separated.
LearnedSize size(Collective c, int k, const char* row, const std::vector<std::string>& others, const char* path) {
  LearnedSize s;
  s.collective = c;
  s.ranks = 512, s.nodes = 4, s.node_ranks = 128, s.size_class = k;
  s.row = row, s.others = others, s.path = path;
  s.mean_us = {12.5, 8.25}, s.slowest_us = {14, 9.5};
  if (others.size() == 2) s.mean_us.push_back(3.125), s.slowest_us.push_back(4.5);
  return s;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::string line;
  for (char ch : text) {
    if (ch == '\n') lines.push_back(line), line.clear();
    else line += ch;
  }
  return lines;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& l : lines) text += l + "\n";
  return text;
}

}  // namespace

TEST_CASE("learned file: what is written is read back, field by field") {
  const std::vector<LearnedSize> written = {size(Collective::allreduce, 11, "shm", {"pmpi"}, "pmpi"),
                                            size(Collective::bcast, 0, "pmpi", {"ring"}, "ring"),
                                            size(Collective::bcast, 14, "ring", {"pmpi", "cma"}, "cma")};
  const LearnedKey k = key();
  std::vector<LearnedSize> read;
  std::string error;
  REQUIRE(parse_learned(format_learned(k, written), &k, &read, &error));
  REQUIRE(read.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(same_place(read[i], written[i]));
    CHECK(read[i].row == written[i].row);
    CHECK(read[i].others == written[i].others);
    CHECK(read[i].path == written[i].path);
    CHECK(read[i].mean_us == written[i].mean_us);
    CHECK(read[i].slowest_us == written[i].slowest_us);
  }
  CHECK(read[0].size_class == 11);
  CHECK(others_text(read[2]) == "pmpi,cma");
  // Without a key to hold it to (the ranks that receive rank 0's file): the same.
  REQUIRE(parse_learned(format_learned(k, written), nullptr, &read, &error));
  CHECK(read.size() == 3);
}

// A file written before bcast's and alltoall's algorithms were named says shm for the ring and
// the staged exchange: read as the names of now, so that the job still starts with what it knew.
TEST_CASE("learned file: shm of an earlier build reads as bcast's ring and alltoall's staged") {
  const LearnedKey k = key();
  std::string text = format_learned(k, {size(Collective::bcast, 14, "ring", {"pmpi", "cma"}, "ring"),
                                        size(Collective::alltoall, 3, "cma", {"staged"}, "staged")});
  for (std::size_t at; (at = text.find("ring")) != std::string::npos || (at = text.find("staged")) != std::string::npos;)
    text.replace(at, text.compare(at, 4, "ring") == 0 ? 4 : 6, "shm");
  REQUIRE(text.find("row=shm other=pmpi,cma path=shm") != std::string::npos);
  std::vector<LearnedSize> read;
  std::string error;
  REQUIRE(parse_learned(text, &k, &read, &error));
  REQUIRE(read.size() == 2);
  CHECK(read[0].row == "ring");
  CHECK(read[0].path == "ring");
  CHECK(read[1].others == std::vector<std::string>{"staged"});
  CHECK(read[1].path == "staged");
}

TEST_CASE("learned file: a key that differs is refused, naming the field") {
  const std::string text = format_learned(key(), {size(Collective::allreduce, 11, "shm", {"pmpi"}, "pmpi")});
  struct Change {
    const char* field;
    void (*apply)(LearnedKey&);
  };
  const Change changes[] = {
      {"node", [](LearnedKey& k) { k.node = "Intel Xeon (1 package, 1 NUMA domain, 16 cores, 32 PUs)"; }},
      {"ranks-per-node", [](LearnedKey& k) { k.ranks_per_node = 64; }},
      {"nodes", [](LearnedKey& k) { k.nodes = 2; }},
      {"mpi", [](LearnedKey& k) { k.mpi = "MPICH Version: 4.2.1"; }},
      {"mcorecoll", [](LearnedKey& k) { k.mcorecoll = "0.2.0"; }},
  };
  for (const Change& change : changes) {
    LearnedKey other = key();
    change.apply(other);
    std::vector<LearnedSize> read;
    std::string error;
    CHECK_FALSE(parse_learned(text, &other, &read, &error));
    CHECK(read.empty());
    CHECK(error.find(std::string("learned for ") + change.field + " ") != std::string::npos);
    // Each field makes a key of its own: a file name of its own.
    CHECK(learned_file_name(other) != learned_file_name(key()));
  }
  CHECK(learned_file_name(key()) == learned_file_name(key()));
  CHECK(learned_file_name(key()).rfind("learned-", 0) == 0);
}

TEST_CASE("learned file: damage anywhere is an error naming the line") {
  const LearnedKey k = key();
  const std::vector<std::string> good =
      lines_of(format_learned(k, {size(Collective::allreduce, 11, "shm", {"pmpi"}, "pmpi")}));
  REQUIRE(good.size() == 7);
  struct Damage {
    int line;  // 1-based
    std::string text;
    const char* says;
  };
  const Damage damages[] = {
      {1, "# something else", "line 1: not a learned file"},
      {3, "ranks per node: 128", "line 3: 'ranks-per-node:' expected"},
      {7, "learned: allreduce ranks=512 nodes=4 node-ranks=128 sizes=1K-2K row=shm other=pmpi path=ring mean-us=1/2 slowest-us=1/2",
       "line 7: 'path=ring' is not a valid path"},
      {7, "learned: allreduce ranks=512 nodes=4 node-ranks=128 sizes=1K-3K row=shm other=pmpi path=pmpi mean-us=1/2 slowest-us=1/2",
       "not a valid sizes"},
      {7, "learned: allreduce ranks=512 nodes=4 node-ranks=128 sizes=1K-2K row=shm other=shm path=shm mean-us=1/2 slowest-us=1/2",
       "a candidate named twice"},
      {7, "learned: bcast ranks=512 nodes=4 node-ranks=128 sizes=1K-2K row=shm other=pmpi,shm path=shm mean-us=1/2/3 slowest-us=1/2/3",
       "a candidate named twice"},
      {7, "learned: bcast ranks=512 nodes=4 node-ranks=128 sizes=1K-2K row=shm other=pmpi,cma path=cma mean-us=1/2 slowest-us=1/2/3",
       "the times are not one a candidate"},
      {7, "learned: bcast ranks=512 nodes=4 node-ranks=128 sizes=1K-2K row=shm other=pmpi, path=shm mean-us=1/2 slowest-us=1/2",
       "not a valid other"},
      {7, "learned: bcast ranks=512 nodes=4 node-ranks=128 sizes=1K-2K row=shm other=pmpi path=cma mean-us=1/2 slowest-us=1/2",
       "none of the candidates"},
      {7, "learned: allreduce ranks=512 nodes=4 sizes=1K-2K row=shm other=pmpi path=pmpi mean-us=1/2 slowest-us=1/2",
       "no node-ranks"},
      {7, "learned: allreduce ranks=512 nodes=4 node-ranks=128 sizes=1K-2K row=shm other=pmpi path=pmpi mean-us=1/x slowest-us=1/2",
       "not a valid mean-us"},
      {7, "learned: allreduce ranks=2 nodes=4 node-ranks=128 sizes=1K-2K row=shm other=pmpi path=pmpi mean-us=1/2 slowest-us=1/2",
       "impossible shape"},
      {7, "learned: gossip ranks=512", "no collective 'gossip'"},
      {7, "allreduce ranks=512", "'learned:' expected"},
  };
  for (const Damage& d : damages) {
    std::vector<std::string> lines = good;
    lines[static_cast<std::size_t>(d.line - 1)] = d.text;
    std::vector<LearnedSize> read;
    std::string error;
    CHECK_FALSE(parse_learned(joined(lines), &k, &read, &error));
    CHECK(read.empty());
    CHECK(error.find(d.says) != std::string::npos);
  }
  // Cut short, and one size twice.
  std::vector<LearnedSize> read;
  std::string error;
  CHECK_FALSE(parse_learned(joined({good[0], good[1]}), &k, &read, &error));
  CHECK(error.find("ends before its 'ranks-per-node:' line") != std::string::npos);
  CHECK_FALSE(parse_learned(joined(good) + good[6] + "\n", &k, &read, &error));
  CHECK(error.find("line 8: the same size learned twice") != std::string::npos);
  CHECK_FALSE(parse_learned("", &k, &read, &error));
}

TEST_CASE("learned file: its directory") {
  CHECK(learned_directory("/scratch/me/learned", "/home/me/.cachex", "/home/me") == "/scratch/me/learned");
  CHECK(learned_directory("none", "/x", "/home/me").empty());
  CHECK(learned_directory("", "/home/me/.cachex", "/home/me") == "/home/me/.cachex/mcorecoll");
  CHECK(learned_directory("", "relative", "/home/me") == "/home/me/.cache/mcorecoll");
  CHECK(learned_directory("", nullptr, nullptr).empty());
}

TEST_CASE("learned file: written whole, through a rename, its directory made") {
  char base[] = "/tmp/learned-unit-XXXXXX";
  REQUIRE(mkdtemp(base));
  const std::string dir = std::string(base) + "/a/b", path = dir + "/learned-x.txt";
  std::string error, text;
  bool missing = false;
  CHECK_FALSE(read_whole(path, &text, &missing, &error));
  CHECK(missing);
  REQUIRE(write_whole(path, "first\n", &error));
  REQUIRE(write_whole(path, "second\n", &error));
  REQUIRE(read_whole(path, &text, &missing, &error));
  CHECK(text == "second\n");
  // Nothing but the file is left in its directory (no temporary).
  int entries = 0;
  DIR* d = opendir(dir.c_str());
  REQUIRE(d);
  while (dirent* e = readdir(d)) entries += e->d_name[0] != '.';
  closedir(d);
  CHECK(entries == 1);
  // A directory that cannot be made: an error naming it.
  std::ofstream(std::string(base) + "/file") << "x";
  CHECK_FALSE(write_whole(std::string(base) + "/file/sub/learned.txt", "x", &error));
  CHECK(error.find("cannot make the directory '" + std::string(base) + "/file") != std::string::npos);
  std::system(("rm -rf '" + std::string(base) + "'").c_str());
}
