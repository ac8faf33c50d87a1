// The writer of the multicast cases (../mcast/writer_mcast.cpp), beside the object-API reader.
#include "../mcast/writer_mcast.cpp"
