#include "decisions/learned_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "common/hash.hpp"
#include "decisions/learning.hpp"

namespace mcorecoll {
namespace {

constexpr const char* kHeading = "# mcorecoll: sizes learned in a job's own calls (MCORECOLL_LEARN=auto)";

// The key's fields, in the file's order, as (name, text).
std::vector<std::pair<std::string, std::string>> key_fields(const LearnedKey& k) {
  return {{"node", k.node},
          {"ranks-per-node", std::to_string(k.ranks_per_node)},
          {"nodes", std::to_string(k.nodes)},
          {"mpi", k.mpi},
          {"mcorecoll", k.mcorecoll}};
}

// A path's name as this build writes it (a file of an earlier build may say shm for a bcast's
// ring): false where it is none of `c`'s.
bool canonical_path(Collective c, const std::string& name, std::string* out) {
  const int path = path_index(c, name);
  if (path < 0) return false;
  *out = path_name(c, path);
  return true;
}

bool parse_count(const std::string& text, int* out) {
  if (text.empty() || text.size() > 9) return false;
  for (char ch : text)
    if (ch < '0' || ch > '9') return false;
  *out = std::stoi(text);
  return *out > 0;
}

// "a,b,c" split at `sep`; an empty part makes it invalid (false).
bool split(const std::string& text, char sep, std::vector<std::string>* parts) {
  parts->clear();
  std::size_t from = 0;
  for (;;) {
    const std::size_t at = text.find(sep, from);
    parts->push_back(text.substr(from, at == std::string::npos ? std::string::npos : at - from));
    if (parts->back().empty()) return false;
    if (at == std::string::npos) return true;
    from = at + 1;
  }
}

// "1.2/0.8[/0.9]": one time, microseconds, per candidate.
bool parse_times(const std::string& text, std::vector<double>* out) {
  std::vector<std::string> parts;
  out->clear();
  if (!split(text, '/', &parts) || parts.size() < 2 || parts.size() > kLearnCandidatesMost) return false;
  for (const std::string& p : parts) {
    double x = 0;
    char tail = 0;
    if (std::sscanf(p.c_str(), "%lf%c", &x, &tail) != 1 || !(x >= 0)) return false;
    out->push_back(x);
  }
  return true;
}

bool parse_others(Collective c, const std::string& text, std::vector<std::string>* others) {
  if (!split(text, ',', others) || others->size() + 1 > kLearnCandidatesMost) return false;
  for (std::string& o : *others)
    if (!canonical_path(c, o, &o)) return false;
  return true;
}

// "allreduce ranks=2 nodes=1 ...": false with *error naming the part that is wrong.
bool parse_size_line(const std::string& text, LearnedSize* s, std::string* error) {
  std::istringstream in(text);
  std::string name;
  in >> name;
  bool found = false;
  for (Collective c : kAllCollectives)
    if (name == collective_name(c)) s->collective = c, found = true;
  if (!found) return *error = "no collective '" + name + "'", false;
  bool seen[9] = {};
  const char* fields[9] = {"ranks", "nodes", "node-ranks", "sizes", "row", "other", "path", "mean-us", "slowest-us"};
  std::string item;
  while (in >> item) {
    const std::size_t eq = item.find('=');
    const std::string field = item.substr(0, eq), value = eq == std::string::npos ? "" : item.substr(eq + 1);
    int f = 0;
    while (f < 9 && field != fields[f]) ++f;
    if (f == 9 || eq == std::string::npos) return *error = "'" + item + "' is no field of a learned size", false;
    bool ok = true;
    switch (f) {
      case 0: ok = parse_count(value, &s->ranks); break;
      case 1: ok = parse_count(value, &s->nodes); break;
      case 2: ok = parse_count(value, &s->node_ranks); break;
      case 3:
        ok = false;
        for (int k = 0; k <= 64 && !ok; ++k)
          if (value == class_name(k)) s->size_class = k, ok = true;
        break;
      case 4: ok = canonical_path(s->collective, value, &s->row); break;
      case 5: ok = parse_others(s->collective, value, &s->others); break;
      case 6: ok = canonical_path(s->collective, value, &s->path); break;
      case 7: ok = parse_times(value, &s->mean_us); break;
      case 8: ok = parse_times(value, &s->slowest_us); break;
    }
    if (!ok) return *error = "'" + item + "' is not a valid " + fields[f], false;
    seen[f] = true;
  }
  for (int f = 0; f < 9; ++f)
    if (!seen[f]) return *error = std::string("no ") + fields[f], false;
  std::vector<std::string> all = s->others;
  all.push_back(s->row);
  std::sort(all.begin(), all.end());
  if (std::adjacent_find(all.begin(), all.end()) != all.end())
    return *error = "a candidate named twice (row=" + s->row + " other=" + others_text(*s) + ")", false;
  if (!std::binary_search(all.begin(), all.end(), s->path))
    return *error = "path " + s->path + " is none of the candidates (row=" + s->row + " other=" + others_text(*s) + ")",
           false;
  if (s->mean_us.size() != all.size() || s->slowest_us.size() != all.size())
    return *error = "the times are not one a candidate (" + std::to_string(all.size()) + " candidates)", false;
  if (s->node_ranks > s->ranks || s->nodes > s->ranks) return *error = "a communicator of impossible shape", false;
  return true;
}

}  // namespace

std::string others_text(const LearnedSize& s) {
  std::string out;
  for (const std::string& o : s.others) out += (out.empty() ? "" : ",") + o;
  return out;
}

std::string times_text(const double* us, std::size_t n, int decimals) {
  std::string out;
  for (std::size_t x = 0; x < n; ++x) {
    char one[32];
    std::snprintf(one, sizeof one, "%.*f", decimals, us[x]);
    out += (x ? "/" : "") + std::string(one);
  }
  return out;
}

bool same_place(const LearnedSize& a, const LearnedSize& b) {
  return a.collective == b.collective && a.ranks == b.ranks && a.nodes == b.nodes && a.node_ranks == b.node_ranks &&
         a.size_class == b.size_class;
}

std::string learned_file_name(const LearnedKey& key) {
  std::string all;
  for (const auto& [name, value] : key_fields(key)) all += name + ": " + value + "\n";
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016" PRIx64, fnv1a(all));
  return std::string("learned-") + hex + ".txt";
}

std::string format_learned(const LearnedKey& key, const std::vector<LearnedSize>& sizes) {
  std::ostringstream out;
  out << kHeading << "\n";
  for (const auto& [name, value] : key_fields(key)) out << name << ": " << value << "\n";
  for (const LearnedSize& s : sizes) {
    auto times = [](const std::vector<double>& us) { return times_text(us.data(), us.size(), 3); };
    out << "learned: " << collective_name(s.collective) << " ranks=" << s.ranks << " nodes=" << s.nodes
        << " node-ranks=" << s.node_ranks << " sizes=" << class_name(s.size_class) << " row=" << s.row
        << " other=" << others_text(s) << " path=" << s.path << " mean-us=" << times(s.mean_us)
        << " slowest-us=" << times(s.slowest_us) << "\n";
  }
  return out.str();
}

bool parse_learned(const std::string& text, const LearnedKey* expected, std::vector<LearnedSize>* sizes,
                   std::string* error) {
  sizes->clear();
  std::istringstream in(text);
  std::string line;
  int number = 0;
  auto fail = [&](const std::string& why) {
    sizes->clear();
    *error = "line " + std::to_string(number) + ": " + why;
    return false;
  };
  if (!std::getline(in, line) || (++number, line != kHeading)) return fail("not a learned file of mcorecoll");
  LearnedKey want;
  if (expected) want = *expected;
  for (const auto& [name, value] : key_fields(want)) {
    ++number;
    if (!std::getline(in, line)) return fail("ends before its '" + name + ":' line");
    const std::string lead = name + ": ";
    if (line.compare(0, lead.size(), lead) != 0) return fail("'" + name + ":' expected, found '" + line + "'");
    const std::string found = line.substr(lead.size());
    if (expected && found != value)
      return fail("learned for " + name + " '" + found + "', and this job's " + name + " is '" + value + "'");
  }
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    const std::string lead = "learned: ";
    if (line.compare(0, lead.size(), lead) != 0) return fail("'learned:' expected, found '" + line + "'");
    LearnedSize s;
    std::string why;
    if (!parse_size_line(line.substr(lead.size()), &s, &why)) return fail(why);
    for (const LearnedSize& before : *sizes)
      if (same_place(before, s)) return fail("the same size learned twice");
    sizes->push_back(s);
  }
  if (!in.eof()) return fail("unreadable");
  return true;
}

std::string learned_directory(const std::string& given, const char* xdg_cache_home, const char* home) {
  if (given == "none") return "";
  if (!given.empty()) return given;
  if (xdg_cache_home && *xdg_cache_home == '/') return std::string(xdg_cache_home) + "/mcorecoll";
  if (home && *home == '/') return std::string(home) + "/.cache/mcorecoll";
  return "";
}

bool write_whole(const std::string& path, const std::string& text, std::string* error) {
  auto failed = [&](const std::string& what, int err) {
    *error = what + ": " + std::strerror(err);
    return false;
  };
  const std::size_t slash = path.rfind('/');
  if (slash != std::string::npos && slash > 0) {
    // Each missing parent in turn (a cache directory often lacks its first component too).
    const std::string dir = path.substr(0, slash);
    for (std::size_t at = 1; at <= dir.size(); ++at)
      if (at == dir.size() || dir[at] == '/')
        if (mkdir(dir.substr(0, at).c_str(), 0755) != 0 && errno != EEXIST)
          return failed("cannot make the directory '" + dir.substr(0, at) + "'", errno);
  }
  const std::string temporary = path + ".tmp." + std::to_string(getpid());
  const int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return failed("cannot create '" + temporary + "'", errno);
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : EIO;
      close(fd);
      unlink(temporary.c_str());
      return failed("cannot write '" + temporary + "'", err);
    }
    done += static_cast<std::size_t>(n);
  }
  if (fsync(fd) != 0 || close(fd) != 0) {
    const int err = errno;
    unlink(temporary.c_str());
    return failed("cannot write '" + temporary + "'", err);
  }
  if (rename(temporary.c_str(), path.c_str()) != 0) {
    const int err = errno;
    unlink(temporary.c_str());
    return failed("cannot rename '" + temporary + "' to '" + path + "'", err);
  }
  return true;
}

bool read_whole(const std::string& path, std::string* text, bool* missing, std::string* error) {
  *missing = false;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (errno == ENOENT) return *missing = true, false;
    *error = "cannot open '" + path + "': " + std::strerror(errno);
    return false;
  }
  std::ostringstream all;
  all << in.rdbuf();
  if (in.bad()) return *error = "cannot read '" + path + "'", false;
  *text = all.str();
  return true;
}

}  // namespace mcorecoll
