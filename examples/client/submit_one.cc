// Submits one job to a NATS JetStream server and prints its result:
//   submit_one nats://127.0.0.1:4222 worker.pub
// (a worker must be running: mty worker --nats URL --sign-key worker.key;
// worker.pub is its public key, which the result must be signed with).
#include <chrono>
#include <iostream>

#include "mty/client.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: submit_one NATS_URL WORKER_PUBLIC_KEY\n";
    return 64;
  }
  mty::ClusterOptions options;
  options.url = argv[1];
  options.verify_keys = {argv[2]};
  auto client = mty::Client::Connect(options);
  if (!client.ok()) {
    std::cerr << client.status() << "\n";
    return 69;
  }
  mty::Job job;
  job.program = "fn main() {\n    print(\"hello from a worker\")\n}\n";
  auto id = (*client)->Submit(job);
  if (!id.ok()) {
    std::cerr << id.status() << "\n";
    return 69;
  }
  auto result = (*client)->Wait(*id, std::chrono::seconds(30));
  if (!result.ok()) {
    std::cerr << result.status() << "\n";
    return 75;
  }
  std::cout << result->stdout_text << "\n";
  return result->exit_code;
}
