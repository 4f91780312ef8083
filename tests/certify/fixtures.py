"""Question banks written for these tests (our own words), covering each construct the
readers handle. Line numbers matter: tests refer to where questions start."""

GIFT = r"""// A GIFT bank about running GPU clusters, written for gputeam's tests.
$CATEGORY: $course$/top/Cluster operations

// [id:ops-001] [tag:domain-networking] [tag:week1]
::IB link::Which fabric links the nodes of a DGX SuperPOD?{
    =InfiniBand#Right: NDR InfiniBand.
    ~Token Ring#[html]<b>No</b>, that is decades old.
    ~[plain]Carrier pigeon#Too slow.
    ####[html]The compute fabric is <i>InfiniBand</i>.
}

// [id:ops-002]
::Healthy checks::Which of these are health checks a node should pass?{
    ~%50%DCGM diagnostics#yes
    ~%50%NCCL all-reduce test#yes
    ~%-100%Rebooting every hour#no
}

::Partial credit::Pick the best tool for power capping.{
    ~%-33.33333%A hammer
    =nvidia-smi
    ~%33.33333%A spreadsheet
}

::Escapes\: all of them::Write \{braces\}, a \~tilde, an \=equals, a \#hash and a colon\: done.{TRUE}

// true with both feedbacks and general feedback
::TF feedback::[markdown]GPUs in one NVLink domain share **memory bandwidth**.{
FALSE#They share the NVLink fabric, not memory.#Correct.
####NVLink joins GPUs; each keeps its own HBM.}

::Short answer::Name the NVIDIA tool that reports GPU health.{
    =DCGM#Data Center GPU Manager.
    =%50%nvidia-smi#Close.
    =%0%*#Anything else is wrong.
}

::Missing word::The scheduler most HPC sites use is {=Slurm =SLURM} and it is open source.

::Numbers::How many GPUs does a DGX H100 hold?{#8}

::Tolerance::Rack power in kW for one DGX H100 (10.2 kW, give or take)?{#
    =10.2:0.5#Right.
    =%50%10:2#Roughly.
    ~#Look at the data sheet.
}

::Range::Pick a PUE between 1.1 and 1.5.{#1.1..1.5}

::Match::Match each layer to its tool.{
    =Scheduler -> Slurm
    =Containers -> Enroot
    =Monitoring -> DCGM
    = -> Kubernetes
}

::Essay::Describe how you would drain a node before maintenance.{####Mention draining in Slurm.}

::Intro::[html]<p>The next questions are about <b>storage</b>.</p>

$CATEGORY: $course$/top/Cluster operations/Storage

// [tag:domain-storage]
::Plain text::[plain]Is <b>this</b> plain? {T}

::No name here, and it is long enough to be cut when it becomes the default name for a question {T}
"""

#: (line, name, message fragment) of the invalid questions in GIFT_BAD.
GIFT_BAD = r"""::Bad grade::Pick one.{
    =right
    ~%33%almost
}

::No braces::This question opens { but never closes.

::One answer::Only one choice here.{~lonely}

::Bad number::How many?{#lots}

::Bad match::Match these.{=a -> b =c d}

::Cloze::Type {1:SHORTANSWER:=Paris} here.

::Fine::Still imported.{T}
"""

XML = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="category">
    <category><text>$course$/top/Fabric</text></category>
    <info format="markdown"><text>Questions on the network fabric.</text></info>
    <idnumber>cat-fabric</idnumber>
  </question>
  <question type="multichoice">
    <name><text>Rail-optimised</text></name>
    <questiontext format="html">
      <text><![CDATA[<p>What does a <b>rail-optimised</b> topology connect?</p>
<img src="@@PLUGINFILE@@/rails.png">]]></text>
      <file name="rails.png" path="/" encoding="base64">iVBORw0KGgo=</file>
    </questiontext>
    <generalfeedback format="html"><text>Each GPU's NIC goes to its own leaf.</text></generalfeedback>
    <defaultgrade>2</defaultgrade>
    <idnumber>fab-001</idnumber>
    <single>true</single>
    <answer fraction="100" format="html"><text>Same-index GPUs to the same leaf</text>
      <feedback format="html"><text>Yes.</text></feedback></answer>
    <answer fraction="0" format="html"><text>All GPUs to one switch</text>
      <feedback format="html"><text>No.</text></feedback></answer>
    <answer fraction="-50" format="plain_text"><text>Nothing</text></answer>
    <tags><tag><text>domain-networking</text></tag><tag><text>fabric</text></tag></tags>
  </question>
  <question type="multichoice">
    <name><text>Multi</text></name>
    <questiontext format="moodle_auto_format"><text>Pick the lossless transports.</text></questiontext>
    <single>false</single>
    <answer fraction="50"><text>InfiniBand</text></answer>
    <answer fraction="50"><text>RoCE with PFC</text></answer>
    <answer fraction="-100"><text>UDP over Wi-Fi</text></answer>
  </question>
  <question type="category">
    <category><text>$course$/top/Fabric/Storage</text></category>
  </question>
  <question type="truefalse">
    <name><text>TF</text></name>
    <questiontext format="plain_text">
      <text>Parallel file systems stripe files across servers.</text>
    </questiontext>
    <answer fraction="0"><text>false</text><feedback><text>They do.</text></feedback></answer>
    <answer fraction="100"><text>true</text><feedback><text>Right.</text></feedback></answer>
  </question>
  <question type="shortanswer">
    <name><text>Case</text></name>
    <questiontext format="html"><text>Name the Lustre metadata server, in capitals.</text></questiontext>
    <usecase>1</usecase>
    <answer fraction="100"><text>MDS</text></answer>
  </question>
  <question type="numerical">
    <name><text>Num</text></name>
    <questiontext format="html"><text>Stripe count in the example?</text></questiontext>
    <answer fraction="100"><text>4</text><tolerance>0.5</tolerance></answer>
    <answer fraction="0"><text>*</text><feedback><text>No.</text></feedback></answer>
  </question>
  <question type="matching">
    <name><text>Match</text></name>
    <questiontext format="html"><text>Match the file system to its vendor.</text></questiontext>
    <subquestion format="html"><text>Lustre</text><answer><text>DDN</text></answer></subquestion>
    <subquestion format="html"><text>GPFS</text><answer><text>IBM</text></answer></subquestion>
    <subquestion format="html"><text></text><answer><text>Nobody</text></answer></subquestion>
  </question>
  <question type="essay">
    <name><text>Essay</text></name>
    <questiontext format="html"><text>Explain checkpoint storms.</text></questiontext>
  </question>
  <question type="description">
    <name><text>Intro</text></name>
    <questiontext format="html"><text>Read this first.</text></questiontext>
  </question>
  <question type="cloze">
    <name><text>Cloze</text></name>
    <questiontext format="html"><text>Capital of France: {1:SHORTANSWER:=Paris}</text></questiontext>
  </question>
  <question type="calculated">
    <name><text>Calc</text></name>
    <questiontext format="html"><text>{a} + {b}?</text></questiontext>
  </question>
  <question type="multichoice">
    <name><text>Bad grades</text></name>
    <questiontext format="html"><text>Pick.</text></questiontext>
    <answer fraction="100"><text>a</text></answer>
    <answer fraction="42"><text>b</text></answer>
  </question>
</quiz>
"""
